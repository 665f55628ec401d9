import type { ConflictGraph } from './conflict-graph.js';

/** The waves a safe call may join in an ordered list of waves: strictly between `after` and `before`. */
export interface PlacementWindow {
  /** The latest wave holding a call that must run before it (-1: none). */
  readonly after: number;
  /** The earliest wave holding a call that must run after it (`waves` when none). */
  readonly before: number;
}

/**
 * Where safe call `position` may go among `waves` ordered waves without breaking rules 3 and 4,
 * given the wave of every placed call (`waveOf`, -1 for calls not placed yet): any wave
 * strictly between `after` and `before` (none of them holds a call it conflicts with), or a new
 * wave inserted at `after + 1`. Rule 4 chains through calls not placed yet: if a before b
 * before c and only a and c are placed, c's window still starts after a's wave, so b will fit
 * between them. With every placed call's window kept, `after < before` always holds.
 * Internal to the package.
 *
 * @example placementWindow(graph, 3, waveOf, 4) // { after: 0, before: 3 }: waves 1 and 2
 */
export function placementWindow(
  graph: ConflictGraph,
  position: number,
  waveOf: Int32Array,
  waves: number,
): PlacementWindow {
  return {
    after: reach(graph.earlier, position, waveOf, -1, (a, b) => a > b),
    before: reach(graph.later, position, waveOf, waves, (a, b) => a < b),
  };
}

/** The most `beats` wave among the placed calls reached from `position` through unplaced ones. */
function reach(
  edges: readonly (readonly number[])[],
  position: number,
  waveOf: Int32Array,
  start: number,
  beats: (a: number, b: number) => boolean,
): number {
  let best = start;
  const stack = [position];
  let seen: Set<number> | undefined;
  while (stack.length > 0) {
    for (const other of edges[stack.pop()!]!) {
      const wave = waveOf[other]!;
      if (wave !== -1) {
        if (beats(wave, best)) best = wave;
      } else if (!seen?.has(other)) {
        seen ??= new Set();
        seen.add(other);
        stack.push(other);
      }
    }
  }
  return best;
}
