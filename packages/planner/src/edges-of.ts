import type { CallEdge, EdgeSource, PlanNode } from './types.js';

/**
 * Every ordering edge of a node, ascending by call: each call of its `after` list (source
 * `'after'`) and, when `afterPrevious` is set, every other earlier call (that source). Edges
 * point to earlier calls only, so they are known the moment a call arrives. Nodes must be valid.
 *
 * @example
 * edgesOf({ index: 3, parallelizable: true, after: [1] });
 * // [{ call: 1, source: 'after' }]
 * edgesOf({ index: 2, parallelizable: true, after: [1], afterPrevious: 'wait_for_previous' });
 * // [{ call: 0, source: 'wait_for_previous' }, { call: 1, source: 'after' }]
 * @see followsByEdge
 */
export function edgesOf(node: PlanNode): CallEdge[] {
  const { after, afterPrevious } = node;
  const named = new Set(after);
  if (afterPrevious === undefined) {
    return [...named].sort(ascending).map((call) => ({ call, source: 'after' as const }));
  }
  const edges: CallEdge[] = [];
  for (let call = 0; call < node.index; call++) {
    edges.push({ call, source: named.has(call) ? 'after' : afterPrevious });
  }
  return edges;
}

/**
 * Whether `later` must follow `earlier` by an ordering edge (its `after` list names `earlier`, or
 * it follows every earlier call), and why; `undefined` when no edge joins them that way.
 *
 * @example
 * followsByEdge({ index: 0, parallelizable: true }, { index: 1, parallelizable: true, after: [0] }); // 'after'
 * @see edgesOf
 */
export function followsByEdge(earlier: PlanNode, later: PlanNode): EdgeSource | undefined {
  if (earlier.index >= later.index) return undefined;
  if (later.after?.includes(earlier.index) === true) return 'after';
  return later.afterPrevious;
}

/** Whether a node has any ordering edge. */
export function hasEdges(node: PlanNode): boolean {
  return node.afterPrevious !== undefined || (node.after !== undefined && node.after.length > 0);
}

const ascending = (a: number, b: number): number => a - b;
