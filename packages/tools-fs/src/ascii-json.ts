/**
 * Printable ASCII but `"` and `\`: a text of these alone is its own JSON, in quotes (an
 * allowlist: `JSON.stringify` escapes the others, or they are not ASCII).
 */
const PLAIN = /^[\u0020\u0021\u0023-\u005b\u005d-\u007e]*$/;
const NON_ASCII = /[\u007f-\uffff]/g;

/**
 * A string as JSON with every non-ASCII character escaped (`\u00e9`): one byte per character,
 * so its length is its size in a file, and a read that splits the file anywhere never cuts a
 * character in two. `JSON.parse` reads it back as the same string.
 *
 * @example asciiJson('fs:/tmp/café.txt') // '"fs:/tmp/caf\\u00e9.txt"'
 */
export function asciiJson(text: string): string {
  // the common case, a path of printable ASCII: its JSON is the text in quotes. One test of
  // the text instead of `JSON.stringify` and a test of its result (which took microseconds)
  if (PLAIN.test(text)) return `"${text}"`;
  return JSON.stringify(text).replace(
    NON_ASCII,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
