/**
 * The later of two waves (numbers from -1 up), without a branch. Which one is later depends on
 * the batch, so the CPU would guess a branch wrong about as often as right and pay for each
 * wrong guess: with `if (a > b)` (or `Math.max`, which compiles to the same branch), the queries
 * and records of {@link LatestWaveIndex} for 100 000 calls with access lists took about 1.5× as
 * long. Internal to the package.
 *
 * @example later(3, -1) // 3
 */
export function later(a: number, b: number): number {
  // Both from -1 up and below 2^31, so `d` fits in 32 bits and its sign bit says which is later.
  const d = a - b;
  return a - (d & (d >> 31));
}
