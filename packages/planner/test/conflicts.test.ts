// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { accessesOf, conflicts, keysOverlap, type PlanNode } from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accessBatch } from './batch-arbitraries.js';
import { keyConflict, referenceKeysOverlap } from './reference-model.js';

describe('keysOverlap', () => {
  it.each([
    ['fs:/a', 'fs:/a', true],
    ['fs:/a', 'fs:/a/b.txt', true],
    ['fs:/a/b.txt', 'fs:/a', true],
    ['fs:/a', 'fs:/ab', false],
    ['fs:/a/', 'fs:/a', true],
    ['fs:/', 'fs:/a/b', true],
    ['fs:', 'fs:/a', true],
    ['fs:/a', 'db:/a', false],
    ['a', 'b', false],
    ['file:a.rs', 'file:a.rs', true],
  ])('%s and %s overlap: %s', (a, b, expected) => {
    expect(keysOverlap(a, b)).toBe(expected);
  });

  it('agrees with prefix comparison of `/`-separated segments, on arbitrary keys', () => {
    const key = fc.string({ unit: fc.constantFrom('a', 'b', '/', ':'), maxLength: 7 });
    fc.assert(
      fc.property(key, key, (a, b) => {
        assert.equal(keysOverlap(a, b), referenceKeysOverlap(a, b));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('conflicts', () => {
  const node = (index: number, extra: Partial<PlanNode> = {}): PlanNode => ({
    index,
    parallelizable: true,
    ...extra,
  });

  it('is true whenever either call is not concurrency-safe', () => {
    expect(conflicts(node(0, { parallelizable: false }), node(1))).toBe(true);
    expect(conflicts(node(0), node(1, { parallelizable: false }))).toBe(true);
  });

  it('is false for keyless safe calls and for reads of the same key', () => {
    expect(conflicts(node(0), node(1, { resourceKey: 'a' }))).toBe(false);
    const read = { access: [{ key: 'fs:/a', mode: 'read' as const }] };
    expect(conflicts(node(0, read), node(1, read))).toBe(false);
  });

  it('is true for the same plain resourceKey (a write), false for different ones', () => {
    expect(conflicts(node(0, { resourceKey: 'a' }), node(1, { resourceKey: 'a' }))).toBe(true);
    expect(conflicts(node(0, { resourceKey: 'a' }), node(1, { resourceKey: 'b' }))).toBe(false);
  });

  it('is true for a read and a write of overlapping keys, in either order', () => {
    const write = node(0, { access: [{ key: 'fs:/a', mode: 'write' }] });
    const read = node(1, {
      access: [
        { key: 'fs:/b', mode: 'read' },
        { key: 'fs:/a/x', mode: 'read' },
      ],
    });
    expect(conflicts(write, read)).toBe(true);
    expect(conflicts(read, write)).toBe(true);
  });

  it('lists a plain resourceKey as a write, before the access list', () => {
    expect(accessesOf(node(0, { resourceKey: 'k', access: [{ key: 'j', mode: 'read' }] }))).toEqual(
      [
        { key: 'k', mode: 'write' },
        { key: 'j', mode: 'read' },
      ],
    );
  });

  it('matches the pairwise reference on generated calls', () => {
    fc.assert(
      fc.property(accessBatch(2, 2), (nodes) => {
        const [a, b] = nodes as [PlanNode, PlanNode];
        const expected = !a.parallelizable || !b.parallelizable || keyConflict(a, b);
        assert.equal(conflicts(a, b), expected);
        assert.equal(conflicts(b, a), expected);
      }),
      { numRuns: 3000 },
    );
  });
});
