// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { EagerQueue, PlannerError } from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('EagerQueue', () => {
  it('hands out a call once every call it depends on has ended, in model order', () => {
    const queue = new EagerQueue();
    expect(queue.add({ index: 0, dependencies: [] })).toEqual([]);
    expect(queue.add({ index: 1, dependencies: [0] })).toEqual([0]);
    expect(queue.add({ index: 2, dependencies: [] })).toEqual([]);
    expect(queue.add({ index: 3, dependencies: [2, 0] })).toEqual([0, 2]);
    expect([queue.take(), queue.take(), queue.take()]).toEqual([0, 2, undefined]);
    expect(queue.waitingCount).toBe(2);
    queue.end(2);
    expect(queue.readyCount).toBe(0);
    queue.end(0);
    expect([queue.take(), queue.take(), queue.take()]).toEqual([1, 3, undefined]);
    expect(queue.waitingCount).toBe(0);
  });

  it('longest-first: the largest estimate first, ties in model order', () => {
    const queue = new EagerQueue({ priority: 'longest-first' });
    queue.add({ index: 0, dependencies: [], estimateMs: 5 });
    queue.add({ index: 1, dependencies: [], estimateMs: 20 });
    queue.add({ index: 2, dependencies: [], estimateMs: 5 });
    queue.add({ index: 3, dependencies: [] });
    expect([queue.take(), queue.take(), queue.take(), queue.take()]).toEqual([1, 0, 2, 3]);
  });

  it('a dependency that already ended, or arrives later, is handled', () => {
    const queue = new EagerQueue();
    queue.end(0);
    expect(queue.add({ index: 1, dependencies: [0, 2] })).toEqual([2]);
    queue.add({ index: 2, dependencies: [] });
    expect(queue.take()).toBe(2);
    queue.end(2);
    expect(queue.take()).toBe(1);
  });

  it('refuses an index added twice and a dependency on itself, naming them', () => {
    const queue = new EagerQueue();
    queue.add({ index: 0, dependencies: [] });
    expect(() => queue.add({ index: 0, dependencies: [] })).toThrow(PlannerError);
    expect(() => queue.add({ index: 1, dependencies: [1] })).toThrow(
      'Call 1 depends on `1` (number), which is not another call',
    );
    expect(() => new EagerQueue({ priority: 'fastest' as never })).toThrow(
      "Expected `priority` to be 'model-order' or 'longest-first'",
    );
  });

  it('driven to the end, hands out every call once, never before its dependencies ended', () => {
    const scenario = fc.integer({ min: 0, max: 12 }).chain((count) =>
      fc.record({
        deps: fc.tuple(
          ...Array.from({ length: count }, (_, i) =>
            fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, i - 1) }), {
              maxLength: i === 0 ? 0 : 3,
            }),
          ),
        ),
        endOrder: fc.array(fc.nat(), { minLength: count, maxLength: count }),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ deps, endOrder }) => {
        const queue = new EagerQueue();
        deps.forEach((dependencies, index) => {
          queue.add({ index, dependencies });
        });
        const ended = new Set<number>();
        const running: number[] = [];
        const taken: number[] = [];
        for (let step = 0; taken.length < deps.length; step++) {
          for (let call = queue.take(); call !== undefined; call = queue.take()) {
            // The plain rule: every dependency has ended.
            for (const dependency of deps[call]!) assert.equal(ended.has(dependency), true);
            taken.push(call);
            running.push(call);
          }
          assert.ok(running.length > 0, `expected running.length (${running.length}) > 0`);
          const [finished] = running.splice(endOrder[step % endOrder.length]! % running.length, 1);
          ended.add(finished!);
          queue.end(finished!);
        }
        assert.deepEqual(
          [...taken].sort((a, b) => a - b),
          deps.map((_, i) => i),
        );
      }),
      { numRuns: 500 },
    );
  });
});
