import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { keysOverlap } from '@toolwaves/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FenceStore } from '../src/fence-store.js';
import { ancestorsOf, TokenIndex } from '../src/token-index.js';
import { tempDir } from './temp-dir.js';

const segment = fc.constantFrom('a', 'b', 'ab', 'c.ts', '', 'ü');
const key = fc
  .tuple(fc.constantFrom('fs:', 'fs:/', 'x'), fc.array(segment, { maxLength: 4 }), fc.boolean())
  .map(([head, parts, slash]) => `${head}${parts.join('/')}${slash ? '/' : ''}`);

describe('TokenIndex', () => {
  it('answers what a scan of every recorded key with the planner’s keysOverlap answers (no folding)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, fc.integer({ min: 1, max: 20 })), { maxLength: 30 }),
        fc.array(key, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 21 }),
        (records, query, token) => {
          const index = new TokenIndex({ maxKeys: 1000 });
          const highest = new Map<string, number>();
          for (const [k, t] of records) {
            index.raise(k, t);
            highest.set(k, Math.max(highest.get(k) ?? 0, t));
          }
          const newer = [...highest].some(
            ([seen, t]) => t > token && query.some((q) => keysOverlap(q, seen)),
          );
          const answer = index.newerThan(query, token);
          expect(answer !== undefined).toBe(newer);
          if (answer !== undefined) {
            expect(answer.token).toBeGreaterThan(token);
            expect(query.some((q) => keysOverlap(q, answer.key))).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('folding refuses at least what the full records refuse, never less', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, fc.integer({ min: 1, max: 50 })), { maxLength: 40 }),
        fc.array(key, { minLength: 1, maxLength: 2 }),
        fc.integer({ min: 0, max: 51 }),
        (records, query, token) => {
          const full = new TokenIndex({ maxKeys: 1000 });
          const folded = new TokenIndex({ maxKeys: 4 });
          for (const [k, t] of records) {
            full.raise(k, t);
            folded.raise(k, t);
          }
          expect(folded.size).toBeLessThanOrEqual(4);
          if (full.newerThan(query, token) !== undefined) {
            expect(folded.newerThan(query, token)).toBeDefined();
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('lists the ancestors keysOverlap knows', () => {
    expect(ancestorsOf('fs:/a/b')).toEqual(['fs:', 'fs:/', 'fs:/a', 'fs:/a/']);
    for (const ancestor of ancestorsOf('fs:/a//b/'))
      expect(keysOverlap(ancestor, 'fs:/a//b/')).toBe(true);
  });
});

describe('FenceStore', () => {
  it('two readers of one file (two processes) see each other’s records; a compaction leaves one line per key and loses none appended meanwhile', async () => {
    const file = join(await tempDir(), 'tokens.log');
    const one = new FenceStore({ file, compactBytes: 200 });
    const two = new FenceStore({ file, compactBytes: 200 });
    one.refresh();
    for (let t = 1; t <= 10; t += 1) one.record(['fs:/a', `fs:/b/${t % 3}`], t);
    two.refresh();
    expect(two.newerThan(['fs:/a'], 9)).toEqual({ key: 'fs:/a', token: 10 });
    expect(two.newerThan(['fs:/b'], 8)).toEqual({ key: 'fs:/b/1', token: 10 });
    one.refresh();
    expect(one.wantsCompaction).toBe(true);
    // a claim of the other process appends after the compactor's last read
    two.record(['fs:/c'], 11);
    one.compact();
    // and one appends to the replaced file: it notices and appends again to the new one
    const three = new FenceStore({ file });
    three.refresh();
    two.record(['fs:/d'], 12);
    expect((await readFile(file, 'utf8')).trim().split('\n')).toEqual([
      'f 0',
      't 8 "fs:/b/2"',
      't 9 "fs:/b/0"',
      't 10 "fs:/a"',
      't 10 "fs:/b/1"',
      't 11 "fs:/c"',
      't 12 "fs:/d"',
    ]);
    for (const store of [one, two, three]) {
      store.refresh();
      expect(store.newerThan(['fs:/a'], 9)).toEqual({ key: 'fs:/a', token: 10 });
      expect(store.newerThan(['fs:/c'], 10)).toEqual({ key: 'fs:/c', token: 11 });
      expect(store.newerThan(['fs:/'], 11)).toEqual({ key: 'fs:/d', token: 12 });
    }
  });

  it('counts the arrivals of processes it reads, tells whether every record was read, and refuses a damaged arrival', async () => {
    const file = join(await tempDir(), 'tokens.log');
    const one = new FenceStore({ file });
    const two = new FenceStore({ file });
    one.arrive('1a-0000aaaa');
    one.refresh();
    expect(one.arrivals).toBe(1);
    expect(one.current()).toBe(true);
    two.arrive('2b-0000bbbb');
    two.record(['fs:/a'], 3);
    // the other's arrival and record are not read yet
    expect(one.current()).toBe(false);
    expect(one.arrivals).toBe(1);
    one.refresh();
    expect(one.arrivals).toBe(2);
    expect(one.current()).toBe(true);
    expect(one.newerThan(['fs:/a'], 2)).toEqual({ key: 'fs:/a', token: 3 });
    await appendFile(file, 'a ../evil\n');
    expect(() => one.refresh()).toThrow(/cannot read \("a \.\.\/evil"\)/);
  });

  it('an arrival appended to a file a compaction has just replaced is made again in the new one', async () => {
    const file = join(await tempDir(), 'tokens.log');
    const compactor = new FenceStore({ file, compactBytes: 10 });
    const late = new FenceStore({ file });
    late.refresh(); // its file is open: the one about to be replaced
    for (let t = 1; t <= 3; t += 1) compactor.record([`fs:/k${t}`], t);
    compactor.refresh();
    compactor.compact();
    late.arrive('3c-0000cccc');
    const reader = new FenceStore({ file });
    reader.refresh();
    expect(reader.arrivals).toBe(1);
    expect((await readFile(file, 'utf8')).trim().split('\n')).toContain('a 3c-0000cccc');
  });
});
