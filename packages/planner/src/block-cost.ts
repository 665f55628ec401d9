import { listSchedule } from './list-schedule.js';

/**
 * How long one wave of safe calls takes: their durations list-scheduled on `slots` slots in
 * model order, exactly as {@link makespan} times a wave. `block` holds positions into
 * `durations` (a {@link ConflictGraph}'s numbering), ascending. Internal to the package.
 *
 * @example blockCost([0, 2], [5, 1, 4], 1) // 9
 */
export function blockCost(
  block: readonly number[],
  durations: readonly number[],
  slots: number,
): number {
  return listSchedule(
    block.map((position) => durations[position]!),
    slots,
  );
}
