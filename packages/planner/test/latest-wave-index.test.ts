// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// The index is internal to the package; it is tested on its own because first-fit relies on it.
import { LatestWaveIndex } from '../src/latest-wave-index.js';
import { referenceKeysOverlap } from './reference-model.js';

describe('the latest-wave index', () => {
  it('finds the latest wave recorded for an access that conflicts', () => {
    const key = fc.string({ unit: fc.constantFrom('a', 'b', '/'), maxLength: 5 });
    const entry = fc.record({ key, write: fc.boolean(), wave: fc.nat({ max: 5 }) });
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 20 }),
        key,
        fc.boolean(),
        (recorded, query, write) => {
          const index = new LatestWaveIndex();
          for (const r of recorded) index.record(index.codeOf(r.key, r.write), r.wave);
          const conflicting = recorded.filter(
            (r) => (r.write || write) && referenceKeysOverlap(r.key, query),
          );
          const expected = Math.max(-1, ...conflicting.map((r) => r.wave));
          assert.equal(index.latest(index.codeOf(query, write)), expected);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('keeps its records when it grows past its first size', () => {
    const index = new LatestWaveIndex();
    for (let k = 0; k < 500; k++) index.record(index.codeOf(`fs:/d${k % 7}/f${k}`, k % 2 === 0), k);
    expect(index.latest(index.codeOf('fs:/d3', false))).toBe(
      // the latest write under fs:/d3: the largest even k with k % 7 === 3
      Math.max(
        ...Array.from({ length: 500 }, (_, k) => k).filter((k) => k % 7 === 3 && k % 2 === 0),
      ),
    );
    expect(index.latest(index.codeOf('fs:/d3/f10', true))).toBe(10);
    expect(index.latest(index.codeOf('fs:/d9', true))).toBe(-1);
  });
});
