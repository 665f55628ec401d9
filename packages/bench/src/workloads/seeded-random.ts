import type { ToolLatency } from './tool-latency.js';

/** Tommy Ettinger's mulberry32: the same seed gives the same numbers in `[0, 1)` anywhere. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed per item of a named stream (FNV-1a), so adding a workload or batch changes no other. */
export function seedFor(options: { seed: number; stream: string; item: number }): number {
  let hash = 0x811c9dc5 ^ (options.seed >>> 0);
  const mix = (byte: number): void => {
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  };
  for (let i = 0; i < options.stream.length; i++) mix(options.stream.charCodeAt(i) & 0xff);
  for (let shift = 0; shift < 32; shift += 8) mix((options.item >>> shift) & 0xff);
  return hash >>> 0;
}

/** A log-normal duration around `medianMs` (Box–Muller), rounded to 0.1 ms. */
export function sampleLogNormal(options: ToolLatency & { random: () => number }): number {
  // 1 - u keeps the logarithm finite.
  const u = 1 - options.random();
  const v = options.random();
  const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.round(options.medianMs * Math.exp(options.sigma * normal) * 10) / 10;
}

/** The choices a workload makes, all drawn from one {@link mulberry32} stream. */
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
    let roll = this.#next() * entries.reduce((total, [, weight]) => total + weight, 0);
    for (const [key, weight] of entries) {
      roll -= weight;
      if (roll < 0) return key;
    }
    return entries[entries.length - 1]![0];
  }

  /** A duration drawn from a tool's latency model. */
  duration(latency: ToolLatency): number {
    return sampleLogNormal({ random: this.#next, ...latency });
  }
}
