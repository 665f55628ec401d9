/**
 * A seeded pseudo-random number generator (Tommy Ettinger's mulberry32): the same seed gives
 * the same sequence on every run and every machine, so every bench run sees the same batches.
 * Not for cryptography.
 *
 * @param seed - any number; only its low 32 bits are used.
 * @returns a function giving the next number in `[0, 1)`.
 * @example
 * const random = mulberry32(42);
 * random(); // the same first value on every run
 * @see sampleLogNormal
 */
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
