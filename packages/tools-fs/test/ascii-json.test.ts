import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiJson } from '../src/ascii-json.js';

/** The rule written plainly: `JSON.stringify`, then every character from U+007F up as `\uXXXX`. */
function reference(text: string): string {
  let out = '';
  for (const c of JSON.stringify(text)) {
    for (let i = 0; i < c.length; i += 1) {
      const code = c.charCodeAt(i);
      out += code >= 0x7f ? `\\u${code.toString(16).padStart(4, '0')}` : c[i];
    }
  }
  return out;
}

/** Paths as keys hold: printable ASCII mostly, and now and then a quote, a control or more. */
const texts = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.constantFrom(
      'a',
      '/',
      '"',
      '\\',
      '\n',
      '\u0000',
      '\u007f',
      'é',
      '\ud83d',
      '\ude00',
      '€',
    ),
  }),
);

describe('asciiJson', () => {
  it('writes any string as ASCII JSON that reads back as the same string, as the plain rule does', () => {
    fc.assert(
      fc.property(texts, (text) => {
        const json = asciiJson(text);
        expect(json).toBe(reference(text));
        expect(/^[\u0020-\u007e]*$/.test(json)).toBe(true);
        expect(JSON.parse(json)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps a path of printable ASCII as it is, in quotes', () => {
    expect(asciiJson('fs:/srv/repo/a b.txt')).toBe('"fs:/srv/repo/a b.txt"');
    expect(asciiJson('fs:/tmp/café.txt')).toBe('"fs:/tmp/caf\\u00e9.txt"');
    expect(asciiJson('a"b\\c\nd\u007f')).toBe('"a\\"b\\\\c\\nd\\u007f"');
  });
});
