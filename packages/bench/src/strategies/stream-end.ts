import type { TurnView } from './strategy.js';

/**
 * When the model stopped writing the turn's calls: the last arrival, or 0 for a whole batch.
 *
 * @example streamEnd({ nodes, maxConcurrency: 8, arrivalMs: [150, 300] }); // 300
 */
export function streamEnd(turn: TurnView): number {
  const arrivals = turn.arrivalMs;
  return arrivals === undefined || arrivals.length === 0 ? 0 : arrivals[arrivals.length - 1]!;
}

/**
 * When call `index` has arrived: its arrival in a streamed turn, 0 in a whole batch.
 *
 * @example arrivalOf({ nodes, maxConcurrency: 8, arrivalMs: [150, 300] }, 1); // 300
 */
export function arrivalOf(turn: TurnView, index: number): number {
  return turn.arrivalMs?.[index] ?? 0;
}
