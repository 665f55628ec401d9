import { accessesOf, type PlanNode } from '@toolwaves/planner';

/**
 * Whether a call counts as read-only for the peers' strategies (Claude Code's
 * concurrency-safe tools, Codex's parallel tools): it is concurrency-safe and every access it
 * declares is a read (a keyless safe call counts too). Edits and writes do not, even though
 * toolwaves runs them in parallel on distinct keys.
 *
 * @example isReadOnly({ index: 0, parallelizable: true, access: [{ key: 'fs:/a', mode: 'read' }] }); // true
 */
export function isReadOnly(node: PlanNode): boolean {
  return node.parallelizable && accessesOf(node).every((access) => access.mode === 'read');
}
