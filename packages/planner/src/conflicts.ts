import { accessesOf } from './accesses-of.js';
import { followsByEdge } from './edges-of.js';
import { keysOverlap } from './keys-overlap.js';
import type { PlanNode } from './types.js';

/**
 * Whether two calls may not share a wave. They conflict exactly when
 * - either is not concurrency-safe (`parallelizable: false`), or
 * - an ordering edge joins them (one follows the other: {@link followsByEdge}), or
 * - some access of one and some access of the other have overlapping keys
 *   ({@link keysOverlap}) and at least one of the two is a write.
 *
 * Accesses are those of {@link accessesOf}: a plain `resourceKey` is a write, so two calls with
 * the same `resourceKey` conflict, while read/read never conflicts. Keyless safe calls conflict
 * with no safe call that no edge joins them to.
 *
 * @example
 * const read = (index: number, key: string): PlanNode =>
 *   ({ index, parallelizable: true, access: [{ key, mode: 'read' }] });
 * conflicts(read(0, 'fs:/a'), read(1, 'fs:/a/b')); // false: read/read
 * @see verifyPlan
 */
export function conflicts(a: PlanNode, b: PlanNode): boolean {
  if (!a.parallelizable || !b.parallelizable) return true;
  if (followsByEdge(a, b) !== undefined || followsByEdge(b, a) !== undefined) return true;
  const left = accessesOf(a);
  if (left.length === 0) return false;
  for (const y of accessesOf(b)) {
    for (const x of left) {
      if ((x.mode === 'write' || y.mode === 'write') && keysOverlap(x.key, y.key)) return true;
    }
  }
  return false;
}
