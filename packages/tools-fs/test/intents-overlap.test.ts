import { keysOverlap } from '@toolwaves/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVERY_KEY } from '../src/commit-intent.js';
import { intentsOverlap } from '../src/commit-peers.js';

const KEYS = [
  '',
  'a',
  'fs:',
  'fs:/',
  'fs:/a',
  'fs:/a/',
  'fs:/ab',
  'fs:/a/b',
  'fs:/a/b/',
  'fs:/a/b.txt',
  'fs:/a/c.txt',
  'fs:/a/b.txt.bak',
  'fs:/a/b/c.txt',
  'fs:/srv/repo/fenced-0-1.txt',
  'fs:/srv/repo/fenced-1-1.txt',
  'fs:/srv/repo/fenced-0-13.txt',
  'fs:/srv/repo/fenced-0-1.txt/x',
  'file:a.rs',
  'file:a.rs/',
];

describe('intentsOverlap', () => {
  it('answers as the planner’s keysOverlap for every pair of keys (prefixes, trailing slashes, neighbours, empty)', () => {
    for (const x of KEYS) {
      for (const y of KEYS) {
        expect([x, y, intentsOverlap([x], [y])]).toEqual([x, y, keysOverlap(x, y)]);
      }
    }
  });

  it('answers as keysOverlap for random keys made of a few path characters', () => {
    const key = fc.string({ unit: fc.constantFrom('a', 'b', '/', '.'), maxLength: 8 });
    fc.assert(
      fc.property(key, key, (x, y) => intentsOverlap([x], [y]) === keysOverlap(x, y)),
      { numRuns: 5000 },
    );
  });

  it('two intents overlap when any key of one overlaps any key of the other', () => {
    expect(intentsOverlap(['fs:/a/b.txt', 'fs:/c/d.txt'], ['fs:/x', 'fs:/c'])).toBe(true);
    expect(intentsOverlap(['fs:/a/b.txt', 'fs:/c/d.txt'], ['fs:/x', 'fs:/cd'])).toBe(false);
    expect(intentsOverlap(['fs:/srv/repo/fenced-0-1.txt'], ['fs:/srv/repo/fenced-1-1.txt'])).toBe(
      false,
    );
    expect(intentsOverlap(['fs:/srv/repo/a.txt'], ['fs:/srv/repo/a.txt'])).toBe(true);
  });

  it('the key of every key overlaps everything, even an intent with no key', () => {
    expect(intentsOverlap([EVERY_KEY], ['fs:/a'])).toBe(true);
    expect(intentsOverlap(['fs:/a'], [EVERY_KEY])).toBe(true);
    expect(intentsOverlap([], [EVERY_KEY])).toBe(true);
    expect(intentsOverlap([], ['fs:/a'])).toBe(false);
  });
});
