import { mulberry32 } from './mulberry32.js';
import { sampleLogNormal } from './sample-log-normal.js';
import type { ToolLatency } from './tool-latency.js';

/**
 * The choices a workload makes, all drawn from one seeded {@link mulberry32} stream, so a
 * workload given the same seed makes the same choices.
 *
 * @example
 * const random = new SeededRandom(7);
 * random.pick(['a', 'b']); // the same letter on every run
 */
export class SeededRandom {
  readonly #next: () => number;

  constructor(seed: number) {
    this.#next = mulberry32(seed);
  }

  /** A number in `[0, 1)`. */
  next(): number {
    return this.#next();
  }

  /** `true` with probability `p`. */
  chance(p: number): boolean {
    return this.#next() < p;
  }

  /** An integer in `[0, count)`. */
  int(count: number): number {
    return Math.floor(this.#next() * count);
  }

  /** One element of a non-empty list, uniformly. */
  pick<T>(list: readonly T[]): T {
    const value = list[this.int(list.length)];
    if (value === undefined) throw new RangeError('Cannot pick from an empty list');
    return value;
  }

  /** One key of a table of weights, with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    let total = 0;
    for (const [, weight] of entries) total += weight;
    let roll = this.#next() * total;
    for (const [key, weight] of entries) {
      roll -= weight;
      if (roll < 0) return key;
    }
    return entries[entries.length - 1]![0];
  }

  /** A duration drawn from a tool's latency model ({@link sampleLogNormal}). */
  duration(latency: ToolLatency): number {
    return sampleLogNormal({ random: this.#next, ...latency });
  }
}
