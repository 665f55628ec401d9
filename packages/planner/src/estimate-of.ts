import type { PlanNode } from './types.js';

/** The duration, in ms, assumed for a call that declares no `estimateMs`. */
export const DEFAULT_ESTIMATE_MS = 1;

/**
 * A call's expected duration: its `estimateMs`, or {@link DEFAULT_ESTIMATE_MS} when missing.
 *
 * @example estimateOf({ index: 0, parallelizable: true }) // 1
 * @see makespan
 */
export function estimateOf(node: PlanNode): number {
  return node.estimateMs ?? DEFAULT_ESTIMATE_MS;
}
