import { greedyPlanner, orderedPlanner, type Plan, type PlanNode } from '@toolwaves/planner';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { earlierWaveConflicts } from '../src/earlier-wave-conflicts.js';
import { referenceKeysOverlap } from './reference-keys-overlap.js';

// The calls each call conflicts with in an earlier wave, found through indexes, against the
// rules written plainly and checked on every pair.

const KEYS = ['fs:/a', 'fs:/a/b', 'fs:/a/b/c', 'fs:/a/c', 'fs:/ab', 'fs:/d', 'db:x', 'db:x/y'];

interface NodeSpec {
  readonly safe: boolean;
  readonly accesses: readonly { readonly key: string; readonly write: boolean }[];
  readonly after: readonly number[];
  readonly afterPrevious: boolean;
}

const nodeSpecArb: fc.Arbitrary<NodeSpec> = fc.record({
  safe: fc.integer({ min: 0, max: 4 }).map((n) => n !== 0),
  accesses: fc.array(fc.record({ key: fc.constantFrom(...KEYS), write: fc.boolean() }), {
    maxLength: 3,
  }),
  after: fc.array(fc.nat({ max: 30 }), { maxLength: 2 }),
  afterPrevious: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});

function nodesOf(specs: readonly NodeSpec[]): PlanNode[] {
  return specs.map((spec, index) => {
    const node: { -readonly [K in keyof PlanNode]: PlanNode[K] } = {
      index,
      parallelizable: spec.safe,
    };
    const after = [...new Set(spec.after.filter((k) => k < index))].sort((a, b) => a - b);
    if (after.length > 0) node.after = after;
    if (spec.afterPrevious && index > 0) node.afterPrevious = 'after-previous';
    if (spec.safe && spec.accesses.length > 0) {
      node.access = spec.accesses.map(({ key, write }) => ({
        key,
        mode: write ? 'write' : 'read',
      }));
    }
    return node;
  });
}

/** Whether `a` and `b` may not share a wave, as the spec says it. */
function referenceConflict(a: PlanNode, b: PlanNode): boolean {
  if (!a.parallelizable || !b.parallelizable) return true;
  const [early, late] = a.index < b.index ? [a, b] : [b, a];
  if (late.after?.includes(early.index) === true || late.afterPrevious !== undefined) return true;
  for (const x of a.access ?? []) {
    for (const y of b.access ?? []) {
      if ((x.mode === 'write' || y.mode === 'write') && referenceKeysOverlap(x.key, y.key)) {
        return true;
      }
    }
  }
  return false;
}

function reference(nodes: readonly PlanNode[], plan: Plan): number[][] {
  const waveOf: number[] = [];
  plan.waves.forEach((wave, position) => {
    for (const index of wave.calls) waveOf[index] = position;
  });
  return nodes.map((node, index) =>
    nodes
      .map((_, k) => k)
      .filter((k) => waveOf[k]! < waveOf[index]! && referenceConflict(nodes[k]!, node)),
  );
}

const sequential = (count: number): Plan => ({
  planner: 'sequential',
  waves: Array.from({ length: count }, (_, index) => ({ calls: [index], open: false })),
});

it('finds, for every call, exactly the earlier waves calls it conflicts with, in model order', () => {
  fc.assert(
    fc.property(
      fc.array(nodeSpecArb, { maxLength: 30 }),
      fc.integer({ min: 1, max: 4 }),
      fc.constantFrom('greedy', 'ordered', 'sequential'),
      (specs, cap, which) => {
        const nodes = nodesOf(specs);
        const plan =
          which === 'sequential'
            ? sequential(nodes.length)
            : (which === 'greedy' ? greedyPlanner() : orderedPlanner()).plan(nodes, {
                maxConcurrency: cap,
              });
        expect(earlierWaveConflicts(nodes, plan)).toEqual(reference(nodes, plan));
      },
    ),
    { numRuns: 400 },
  );
});

it('reads a trailing slash as no slash, as keysOverlap does', () => {
  const nodes: PlanNode[] = [
    { index: 0, parallelizable: true, access: [{ key: 'fs:/a/', mode: 'write' }] },
    { index: 1, parallelizable: true, access: [{ key: 'fs:/a/b', mode: 'read' }] },
    { index: 2, parallelizable: true, access: [{ key: 'fs:/ab', mode: 'read' }] },
  ];
  const plan: Plan = {
    planner: 'test',
    waves: [
      { calls: [0], open: false },
      { calls: [1, 2], open: false },
    ],
  };
  expect(earlierWaveConflicts(nodes, plan)).toEqual([[], [0], []]);
});
