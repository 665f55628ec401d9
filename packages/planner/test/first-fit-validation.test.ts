// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { greedyPlanner, orderedPlanner, type PlanNode } from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { assertNodes } from '../src/assert-nodes.js';
import { accessBatch, nestedKeys, plainKeyBatch, slashKeys } from './batch-arbitraries.js';
import { withEdges } from './edge-arbitraries.js';

/** Values no field of a node accepts, or accepts only in some fields. */
const odd = fc.constantFrom<unknown>(
  null,
  undefined,
  7,
  -1,
  1.5,
  Number.NaN,
  'yes',
  '',
  true,
  false,
  {},
  [],
  [7],
  [{ key: 'a', mode: 'append' }],
  [{ mode: 'read' }],
  [{ key: 7, mode: 'write' }],
  [null],
  'after-previous',
);

const fields = fc.constantFrom(
  'node',
  'index',
  'parallelizable',
  'resourceKey',
  'access',
  'after',
  'afterPrevious',
);

/** A batch with one field of one node (or the node itself) replaced by an odd value. */
const corrupted = fc
  .tuple(
    fc.oneof(
      withEdges(plainKeyBatch([...slashKeys, ...nestedKeys], 30)),
      withEdges(accessBatch(12)),
    ),
    fc.nat(),
    fields,
    odd,
  )
  .filter(([nodes]) => nodes.length > 0)
  .map(([nodes, at, field, value]) => {
    const copy: unknown[] = nodes.map((node) => ({ ...node }));
    const i = at % copy.length;
    if (field === 'node') copy[i] = value;
    else (copy[i] as Record<string, unknown>)[field] = value;
    return copy as PlanNode[];
  });

/** What a function throws, as its class, code and message; `'plans'` when it returns. */
function outcome(run: () => unknown): string {
  try {
    run();
    return 'plans';
  } catch (error) {
    const { name, code, message } = error as { name: string; code?: string; message: string };
    return `${name} ${code} ${message}`;
  }
}

describe('first-fit checks every node as assertNodes does', () => {
  it('greedy and ordered refuse a batch with a bad field exactly when assertNodes does, with its error', () => {
    const planners = [greedyPlanner(), orderedPlanner()];
    fc.assert(
      fc.property(corrupted, (nodes) => {
        const expected = outcome(() => assertNodes(nodes));
        for (const planner of planners)
          assert.equal(
            outcome(() => planner.plan(nodes)),
            expected,
          );
      }),
      { numRuns: 3000 },
    );
  });
});
