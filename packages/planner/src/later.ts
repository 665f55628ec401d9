/**
 * The later of two waves (numbers from -1 up), without a branch. Which one is later depends on
 * the batch, so the CPU would guess a branch wrong about as often as right and pay for each
 * wrong guess: taking the latest conflicting wave with `if (a > b)` cost first-fit about a third
 * of its time with access lists (`Math.max` compiles to the same branch). Internal to the
 * package.
 *
 * @example later(3, -1) // 3
 */
export function later(a: number, b: number): number {
  // Both from -1 up and below 2^31, so `d` fits in 32 bits and its sign bit says which is later.
  const d = a - b;
  return a - (d & (d >> 31));
}
