// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// Internal to the package; tested on its own because eager scheduling and the simulator rely on it.
import { BinaryHeap } from '../src/binary-heap.js';

describe('the binary heap', () => {
  it('pops, at every point of any mix of pushes and pops, the first item pushed and not popped', () => {
    // An operation: push a key (a number from 0 up), or pop (-1). Keys may repeat: ties go by item.
    const op = fc.oneof(fc.nat({ max: 30 }), fc.constant(-1));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.boolean(), (ops, ascendingBias) => {
        const keys: number[] = [];
        const heap = new BinaryHeap((a, b) => keys[a]! - keys[b]! || a - b);
        const held: number[] = []; // the reference: items pushed and not popped
        ops.forEach((key, step) => {
          if (key === -1) {
            held.sort((a, b) => keys[a]! - keys[b]! || a - b);
            assert.equal(heap.pop(), held.shift());
          } else {
            const item = keys.length;
            // Half the runs push mostly ascending keys, the case the run of the heap serves.
            keys.push(ascendingBias ? step + (key % 3) : key);
            heap.push(item);
            held.push(item);
          }
          assert.equal(heap.size, held.length);
        });
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps its order over a long run pushed in order and popped while it grows', () => {
    const heap = new BinaryHeap((a, b) => a - b);
    const popped: number[] = [];
    for (let i = 0; i < 5000; i++) {
      heap.push(i);
      if (i % 3 === 0) popped.push(heap.pop()!);
    }
    while (heap.size > 0) popped.push(heap.pop()!);
    expect(popped).toEqual(Array.from({ length: 5000 }, (_, i) => i));
  });
});
