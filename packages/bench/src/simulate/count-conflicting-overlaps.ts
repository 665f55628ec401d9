import type { Schedule } from '@toolwaves/planner';
import { accessesOf, conflicts, keysOverlap, type PlanNode } from '@toolwaves/planner';

/** How often a schedule ran conflicting calls at the same time. */
export interface ConflictingOverlaps {
  /** Pairs of calls that {@link conflicts} says may not overlap, and that overlapped. */
  readonly pairs: number;
  /**
   * Of those, pairs that both write an overlapping key: one of the two writes is lost (a
   * read-modify-write such as `edit_file` overwrites the other's result).
   */
  readonly lostUpdates: number;
}

/**
 * Counts the conflicting pairs a schedule ran at the same time (their run times intersect),
 * and the lost updates among them. Every strategy that keeps the rules scores 0.
 *
 * @example countConflictingOverlaps({ nodes, schedule }); // { pairs: 3, lostUpdates: 1 }
 */
export function countConflictingOverlaps(options: {
  readonly nodes: readonly PlanNode[];
  readonly schedule: Schedule;
}): ConflictingOverlaps {
  const { nodes, schedule } = options;
  let pairs = 0;
  let lostUpdates = 0;
  for (let a = 0; a < nodes.length; a++) {
    for (let b = a + 1; b < nodes.length; b++) {
      const overlap =
        schedule.startMs[a]! < schedule.endMs[b]! && schedule.startMs[b]! < schedule.endMs[a]!;
      if (!overlap || !conflicts(nodes[a]!, nodes[b]!)) continue;
      pairs++;
      if (bothWrite(nodes[a]!, nodes[b]!)) lostUpdates++;
    }
  }
  return { pairs, lostUpdates };
}

function bothWrite(a: PlanNode, b: PlanNode): boolean {
  const writes = (node: PlanNode) => accessesOf(node).filter((access) => access.mode === 'write');
  return writes(a).some((x) => writes(b).some((y) => keysOverlap(x.key, y.key)));
}
