import type { Wave } from './types.js';

/** What first-fit knows of its waves once every call is placed. */
export interface PlacedCalls {
  /** The wave of each call, in model order. */
  readonly waveOf: Int32Array;
  /** How many calls each wave holds (its first `waveCount` entries); reused as scratch. */
  readonly sizes: Int32Array;
  /** Whether each wave is open (1) or closed (0). */
  readonly open: Uint8Array;
  readonly waveCount: number;
}

/**
 * The waves of a first-fit plan, built once at the end: placing calls only writes numbers into
 * typed arrays, and each wave's call list is made here with its exact size, its calls ascending.
 * Pushing onto thousands of growing lists while placing cost more than the placing itself.
 * Internal to the package.
 */
export function collectWaves(placed: PlacedCalls): Wave[] {
  const { waveOf, sizes, open, waveCount } = placed;
  const lists: number[][] = new Array<number[]>(waveCount);
  for (let w = 0; w < waveCount; w++) lists[w] = new Array<number>(sizes[w]!);
  const filled = sizes.fill(0, 0, waveCount);
  for (let i = 0; i < waveOf.length; i++) {
    const w = waveOf[i]!;
    lists[w]![filled[w]!++] = i;
  }
  const waves: Wave[] = new Array<Wave>(waveCount);
  for (let w = 0; w < waveCount; w++) waves[w] = { calls: lists[w]!, open: open[w] === 1 };
  return waves;
}
