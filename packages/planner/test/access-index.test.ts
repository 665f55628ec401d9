// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describe, it } from 'vitest';
// The index is internal to the package; it is tested on its own because every planning
// function relies on it.
import { AccessIndex, AccessRecord } from '../src/access-index.js';
import { referenceKeysOverlap } from './reference-model.js';

describe('the access index', () => {
  it('finds exactly the recorded accesses that conflict, and the one with the highest value', () => {
    const key = fc.string({ unit: fc.constantFrom('a', 'b', '/'), maxLength: 5 });
    const entry = fc.record({ key, write: fc.boolean(), value: fc.nat({ max: 5 }) });
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 20 }),
        key,
        fc.boolean(),
        (recorded, query, write) => {
          const index = new AccessIndex();
          recorded.forEach((r, call) => {
            index.record(index.keyNode(r.key), r.write, r.value, call, 0);
          });
          const best = new AccessRecord();
          index.latest(index.keyNode(query), write, best);
          const matching = recorded
            .map((r, call) => ({ ...r, call }))
            .filter((r) => (r.write || write) && referenceKeysOverlap(r.key, query));
          const top = Math.max(-1, ...matching.map((r) => r.value));
          assert.equal(best.value, top);
          assert.equal(best.call, matching.find((r) => r.value === top)?.call ?? -1);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
