// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import type { PlanNode } from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainKeyFit } from '../src/plain-key-fit.js';
import { accessBatch, nestedKeys, plainKeyBatch, slashKeys } from './batch-arbitraries.js';
import { referenceFirstFit, referenceKeysOverlap } from './reference-model.js';

/** Whether the seed model's shortcut is sound: plain keys only, no two distinct keys overlapping. */
const plainAndApart = (nodes: readonly PlanNode[]): boolean => {
  const safe = nodes.filter((node) => node.parallelizable);
  if (safe.some((node) => node.access !== undefined)) return false;
  const keys = [...new Set(safe.flatMap((node) => node.resourceKey ?? []))];
  return keys.every((a) => keys.every((b) => a === b || !referenceKeysOverlap(a, b)));
};

const batches = fc.oneof(
  plainKeyBatch(slashKeys, 40),
  plainKeyBatch([...slashKeys, ...nestedKeys], 40),
  accessBatch(10),
);

describe('plainKeyFit — the fast path of first-fit for plain keys', () => {
  it('plans exactly as first-fit written plainly whenever it plans, greedy and ordered', () => {
    fc.assert(
      fc.property(batches, fc.boolean(), (nodes, ordered) => {
        const plan = plainKeyFit(nodes, { planner: 'greedy', ordered });
        if (plan !== undefined) assert.deepEqual(plan.waves, referenceFirstFit(nodes, ordered));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives up exactly when some key overlaps another or a call lists accesses (keys ending in `/` aside)', () => {
    fc.assert(
      fc.property(batches, (nodes) => {
        const trailingSlash = nodes.some(
          (node) => node.parallelizable && node.resourceKey?.endsWith('/') === true,
        );
        const plan = plainKeyFit(nodes, { planner: 'greedy', ordered: false });
        if (!trailingSlash) assert.equal(plan !== undefined, plainAndApart(nodes));
        else assert.equal(plan, undefined);
      }),
      { numRuns: 3000 },
    );
  });

  it('sees a key and its ancestor in either order', () => {
    const node = (index: number, resourceKey: string): PlanNode => ({
      index,
      parallelizable: true,
      resourceKey,
    });
    const options = { planner: 'greedy', ordered: false };
    expect(plainKeyFit([node(0, 'fs:/a'), node(1, 'fs:/a/b')], options)).toBeUndefined();
    expect(plainKeyFit([node(0, 'fs:/a/b'), node(1, 'fs:/a')], options)).toBeUndefined();
    expect(plainKeyFit([node(0, 'fs:/a/b'), node(1, 'fs:/ab')], options)?.waves).toEqual([
      { calls: [0, 1], open: true },
    ]);
  });
});
