import { describe, expect, it } from 'vitest';
import { estimateAccuracy, spreadOf } from '../src/simulate/summarize-strategies.js';
import { arrivalTimes } from '../src/simulate/turn-inputs.js';

describe('arrivalTimes', () => {
  it('writes the calls one after another: 12 + chars / 4 tokens each, at the given rate', () => {
    // 28 characters: 19 tokens; 8 characters: 14 tokens; at 100 tokens/s.
    expect(arrivalTimes({ argumentChars: [28, 8], tokensPerSecond: 100 })).toEqual([190, 330]);
    // 80 tokens/s by default.
    expect(arrivalTimes({ argumentChars: [28] })).toEqual([237.5]);
    expect(arrivalTimes({ argumentChars: [] })).toEqual([]);
  });
});

describe('estimateAccuracy', () => {
  it('takes the median and 90th percentile of the relative error, unseen tools at the default', () => {
    const pairs = [
      { estimateMs: 40, durationMs: 50 }, // 0.2
      { estimateMs: 100, durationMs: 50 }, // 1
      { estimateMs: 50, durationMs: 50 }, // 0
      { estimateMs: undefined, durationMs: 20 }, // default 10: 0.5
    ];
    expect(estimateAccuracy({ pairs, defaultMs: 10 })).toEqual({
      calls: 4,
      medianError: 0.5,
      p90Error: 1,
      unseen: 1,
    });
  });
});

describe('spreadOf', () => {
  it('gives the median (mean of the middle two for an even count) and the range, seeds in order', () => {
    expect(spreadOf([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3, perSeed: [3, 1, 2] });
    expect(spreadOf([4, 1, 2, 3])).toEqual({ median: 2.5, min: 1, max: 4, perSeed: [4, 1, 2, 3] });
  });
});
