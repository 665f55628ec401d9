// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { DependencyTracker, dependencies, type PlanNode, PlannerError } from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accessBatch, anyBatch, seedBatch } from './batch-arbitraries.js';
import { closure, mustWait, referenceWaits } from './dependency-reference.js';
import { reads, safe, unsafe, workedExample, writes } from './plan-nodes.js';

/** Deep keys under one root: writes to a directory must clear and then stand for its files. */
const deepKeys = ['fs:/', 'fs:/d', 'fs:/d/e', 'fs:/d/e/f.txt', 'fs:/d/g.txt', 'fs:/h', 'fs:/h/i'];
const deepBatch = fc
  .array(
    fc.record({
      parallelizable: fc.integer({ min: 0, max: 9 }).map((roll) => roll !== 0),
      access: fc.array(
        fc.record({
          key: fc.constantFrom(...deepKeys),
          mode: fc.constantFrom('read' as const, 'write' as const),
        }),
        { maxLength: 2 },
      ),
    }),
    { maxLength: 40 },
  )
  .map((raw) => raw.map((node, index): PlanNode => ({ index, ...node })));

const batches = fc.oneof(anyBatch(), deepBatch);

describe('dependencies — pinned', () => {
  it('answers the worked example: the unsafe call waits for the calls before it, later calls for it', () => {
    // Read(a) Read(b) Edit(c) Grep(*) Read(a) Stat(*): plain keys are exclusive.
    expect(dependencies(workedExample)).toEqual([[], [], [0, 1], [2], [2], [2]]);
  });

  it('keeps the order of same-key calls and leaves out what is implied', () => {
    expect(dependencies([safe(0, 'a'), safe(1, 'b'), safe(2, 'a'), unsafe(3)])).toEqual([
      [],
      [],
      [0],
      [1, 2],
    ]);
    expect(dependencies([safe(0, 'a'), safe(1, 'a'), safe(2, 'a')])).toEqual([[], [0], [1]]);
  });

  it('lets reads share a key and makes a write wait for the readers since the last writer', () => {
    const nodes = [
      writes(0, 'fs:/a'),
      reads(1, 'fs:/a'),
      reads(2, 'fs:/a/b'),
      writes(3, 'fs:/a/b'),
      reads(4, 'fs:/a/c'),
    ];
    expect(dependencies(nodes)).toEqual([[], [0], [0], [1, 2], [0]]);
  });

  it('makes a directory write wait for every file below it, and later file calls for it alone', () => {
    const nodes = [
      writes(0, 'fs:/d/x'),
      writes(1, 'fs:/d/y'),
      reads(2, 'fs:/d/z'),
      writes(3, 'fs:/d'),
      reads(4, 'fs:/d/x'),
      writes(5, 'fs:/d/y'),
    ];
    expect(dependencies(nodes)).toEqual([[], [], [], [0, 1, 2], [3], [3]]);
  });

  it('treats `fs:/a/` as `fs:/a` and keeps `fs:/ab` apart', () => {
    expect(dependencies([writes(0, 'fs:/a/'), writes(1, 'fs:/a'), writes(2, 'fs:/ab')])).toEqual([
      [],
      [0],
      [],
    ]);
  });

  it('answers one arriving call at a time (the TSDoc example)', () => {
    const tracker = new DependencyTracker();
    expect(tracker.add(writes(0, 'fs:/a'))).toEqual([]);
    expect(tracker.add(reads(1, 'fs:/a/b'))).toEqual([0]);
    expect(tracker.add(unsafe(2))).toEqual([1]);
    expect(tracker.size).toBe(3);
  });

  it('ignores the keys of a call that is not concurrency-safe', () => {
    const nodes: PlanNode[] = [
      writes(0, 'a'),
      { index: 1, parallelizable: false, resourceKey: 'a' },
      reads(2, 'b'),
    ];
    expect(dependencies(nodes)).toEqual([[], [0], [1]]);
  });

  it('rejects malformed nodes, naming the field, and records nothing for them', () => {
    const tracker = new DependencyTracker();
    tracker.add(writes(0, 'a'));
    expect(() => tracker.add(writes(5, 'a'))).toThrow(
      expect.objectContaining({
        code: 'invalid_nodes',
        message: expect.stringContaining('nodes[1].index'),
      }),
    );
    const bad = {
      index: 1,
      parallelizable: true,
      access: [{ key: 'a', mode: 'rw' }],
    } as unknown as PlanNode;
    expect(() => tracker.add(bad)).toThrow(PlannerError);
    expect(tracker.size).toBe(1);
    expect(tracker.add(reads(1, 'a'))).toEqual([0]);
    expect(() => dependencies('x' as unknown as PlanNode[])).toThrow(PlannerError);
  });
});

describe('dependencies — properties', () => {
  it('waits, directly or through others, for exactly the calls the rules name (O(n²) reference)', () => {
    fc.assert(
      fc.property(batches, (nodes) => {
        const edges = dependencies(nodes);
        assert.deepEqual(closure(edges), closure(referenceWaits(nodes)));
      }),
      { numRuns: 3000 },
    );
  });

  it('only waits directly for calls the rules name, ascending, without repeats', () => {
    fc.assert(
      fc.property(batches, (nodes) => {
        for (const [i, answer] of dependencies(nodes).entries()) {
          for (const [k, j] of answer.entries()) {
            assert.equal(mustWait(nodes, j, i), true);
            if (k > 0) assert.ok(answer[k - 1]! < j, `expected answer[k - 1]! < j (${j})`);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('gives a call after an unsafe one with no conflict since only that call to wait for', () => {
    fc.assert(
      fc.property(seedBatch(), (nodes) => {
        const edges = dependencies(nodes);
        let barrier = -1;
        const keysSince = new Set<string | undefined>();
        for (const node of nodes) {
          if (!node.parallelizable) {
            barrier = node.index;
            keysSince.clear();
            continue;
          }
          const key = node.resourceKey;
          if (barrier >= 0 && (key === undefined || !keysSince.has(key))) {
            assert.deepEqual(edges[node.index], [barrier]);
          }
          if (key !== undefined) keysSince.add(key);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('stays small in the seed model: at most one wait per safe call, each call awaited by at most one unsafe call', () => {
    fc.assert(
      fc.property(seedBatch(60), (nodes) => {
        const edges = dependencies(nodes);
        for (const node of nodes) {
          if (node.parallelizable)
            assert.ok(
              edges[node.index]!.length <= 1,
              `expected edges[node.index].length (${edges[node.index]!.length}) <= 1`,
            );
        }
        const total = edges.reduce((sum, answer) => sum + answer.length, 0);
        assert.ok(total <= 2 * nodes.length, `expected total (${total}) <= 2 * nodes.length`);
      }),
      { numRuns: 1000 },
    );
  });

  it('DependencyTracker answers as dependencies does, on every prefix', () => {
    fc.assert(
      fc.property(fc.oneof(accessBatch(), deepBatch), (nodes) => {
        const tracker = new DependencyTracker();
        const answers = nodes.map((node) => [...tracker.add(node)]);
        for (let k = 0; k <= nodes.length; k++) {
          assert.deepEqual(dependencies(nodes.slice(0, k)), answers.slice(0, k));
        }
      }),
      { numRuns: 500 },
    );
  });
});
