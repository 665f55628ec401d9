import { describe, expect, it } from 'vitest';
import {
  mulberry32,
  SeededRandom,
  sampleLogNormal,
  seedFor,
} from '../src/workloads/seeded-random.js';

const take = (random: () => number, count: number): number[] =>
  Array.from({ length: count }, () => random());

describe('mulberry32', () => {
  it('gives the same sequence for the same seed, another for another seed', () => {
    expect(take(mulberry32(42), 20)).toEqual(take(mulberry32(42), 20));
    expect(take(mulberry32(42), 20)).not.toEqual(take(mulberry32(43), 20));
  });

  it('stays in [0, 1) and spreads evenly over ten buckets', () => {
    const values = take(mulberry32(7), 100_000);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const buckets = new Array<number>(10).fill(0);
    for (const value of values) buckets[Math.floor(value * 10)]! += 1;
    // 10 000 expected per bucket; the standard deviation is about 95.
    for (const count of buckets) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });
});

describe('seedFor', () => {
  it('separates streams and items, and follows the run seed', () => {
    const seeds = new Set<number>();
    for (const stream of ['explore', 'refactor', 'mixed']) {
      for (let item = 0; item < 50; item++) seeds.add(seedFor({ seed: 1, stream, item }));
    }
    expect(seeds.size).toBe(150);
    expect(seedFor({ seed: 1, stream: 'mixed', item: 3 })).toBe(
      seedFor({ seed: 1, stream: 'mixed', item: 3 }),
    );
    expect(seedFor({ seed: 2, stream: 'mixed', item: 3 })).not.toBe(
      seedFor({ seed: 1, stream: 'mixed', item: 3 }),
    );
  });
});

describe('sampleLogNormal', () => {
  const samples = (medianMs: number, sigma: number): number[] => {
    const random = mulberry32(11);
    return Array.from({ length: 20_001 }, () => sampleLogNormal({ random, medianMs, sigma }));
  };
  const quantile = (sorted: readonly number[], q: number): number =>
    sorted[Math.floor(q * (sorted.length - 1))]!;

  it('centres on the median, never goes negative, and has the long tail sigma asks for', () => {
    const sorted = samples(40, 0.6).sort((a, b) => a - b);
    expect(sorted[0]).toBeGreaterThan(0);
    expect(quantile(sorted, 0.5)).toBeGreaterThan(38);
    expect(quantile(sorted, 0.5)).toBeLessThan(42);
    // p99 of a log-normal is median × e^(2.326 σ) = 40 × 4.04 ≈ 162 ms.
    expect(quantile(sorted, 0.99)).toBeGreaterThan(145);
    expect(quantile(sorted, 0.99)).toBeLessThan(180);
  });

  it('has a heavier tail with a larger sigma', () => {
    const narrow = samples(100, 0.3).sort((a, b) => a - b);
    const wide = samples(100, 0.8).sort((a, b) => a - b);
    expect(quantile(wide, 0.99) / quantile(wide, 0.5)).toBeGreaterThan(
      2 * (quantile(narrow, 0.99) / quantile(narrow, 0.5)),
    );
  });
});

describe('SeededRandom', () => {
  it('picks by weight', () => {
    const random = new SeededRandom(5);
    const counts = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 30_000; i++) counts[random.weighted({ a: 1, b: 2, c: 7 })]++;
    expect(counts.a / 30_000).toBeCloseTo(0.1, 1);
    expect(counts.b / 30_000).toBeCloseTo(0.2, 1);
    expect(counts.c / 30_000).toBeCloseTo(0.7, 1);
  });

  it('refuses to pick from an empty list', () => {
    expect(() => new SeededRandom(1).pick([])).toThrow('Cannot pick from an empty list');
  });
});
