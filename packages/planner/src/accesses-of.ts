import type { Access, PlanNode } from './types.js';

/**
 * Every access a node declares, in one list: a plain `resourceKey: K` comes first as
 * `{ key: K, mode: 'write' }` (the seed model's exclusive key), then the entries of `access`.
 * A node with neither is keyless. Whether the node is concurrency-safe is not considered here.
 *
 * @example
 * accessesOf({ index: 0, parallelizable: true, resourceKey: 'a' }); // [{ key: 'a', mode: 'write' }]
 * @see conflicts
 */
export function accessesOf(node: PlanNode): Access[] {
  const list: Access[] = [];
  if (node.resourceKey !== undefined) list.push({ key: node.resourceKey, mode: 'write' });
  if (node.access !== undefined) list.push(...node.access);
  return list;
}
