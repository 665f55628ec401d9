import { describeValue } from './describe-value.js';
import { PlannerError } from './planner-error.js';
import type { Access, PlanNode } from './types.js';

/** What {@link assertNodes} checks beyond the shape every planner relies on. */
export interface AssertNodesOptions {
  /** Also check `estimateMs` (finite, from 0 up) — for the functions that read durations. */
  readonly estimates?: boolean;
}

/**
 * Checks what the planning functions consult: `nodes` is an array, `nodes[i].index === i`,
 * `parallelizable` is a boolean, `after` lists earlier calls, `afterPrevious` is a known source
 * and, for concurrency-safe calls only (the key is only consulted
 * for them), `resourceKey` is a string and `access` a list of
 * `{ key: string, mode: 'read' | 'write' }`. Internal to the package; the first-fit planners
 * run the same checks piece by piece ({@link assertNode}, {@link isWriteAccess}) while they
 * walk the batch, so that the nodes are read once.
 *
 * @throws {PlannerError} `invalid_nodes`, naming the field and the value.
 */
export function assertNodes(nodes: readonly PlanNode[], options: AssertNodesOptions = {}): void {
  assertNodeList(nodes);
  const estimates = options.estimates === true;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    assertNode(node, i, estimates);
    if (node.parallelizable && node.access !== undefined) {
      for (let a = 0; a < node.access.length; a++) isWriteAccess(node.access[a]!, i, a);
    }
  }
}

/** `nodes` is an array. */
export function assertNodeList(nodes: readonly PlanNode[]): void {
  if (!Array.isArray(nodes)) fail('nodes', 'an array', nodes);
}

/**
 * One node's own fields: an object, `index === i`, a boolean `parallelizable`, `estimateMs`
 * when asked, and for a concurrency-safe node a string `resourceKey` and an array `access`
 * (its entries are checked by {@link isWriteAccess}).
 */
export function assertNode(
  node: PlanNode | undefined,
  i: number,
  estimates = false,
): asserts node is PlanNode {
  if (typeof node !== 'object' || node === null) fail(`nodes[${i}]`, 'an object', node);
  if (node.index !== i) fail(`nodes[${i}].index`, `${i}`, node.index);
  if (typeof node.parallelizable !== 'boolean') {
    fail(`nodes[${i}].parallelizable`, 'a boolean', node.parallelizable);
  }
  if (estimates) {
    const estimate: unknown = node.estimateMs;
    if (
      estimate !== undefined &&
      (typeof estimate !== 'number' || !Number.isFinite(estimate) || estimate < 0)
    ) {
      fail(`nodes[${i}].estimateMs`, 'a finite number from 0 and up', estimate);
    }
  }
  assertEdges(node, i);
  if (!node.parallelizable) return;
  const key: unknown = node.resourceKey;
  if (key !== undefined && typeof key !== 'string') {
    fail(`nodes[${i}].resourceKey`, 'a string', key);
  }
  const access: unknown = node.access;
  if (access !== undefined && !Array.isArray(access)) {
    fail(`nodes[${i}].access`, 'an array', access);
  }
}

/**
 * Checks `nodes[call].access[position]` and tells whether it is a write.
 *
 * @throws {PlannerError} `invalid_nodes` unless it is `{ key: string, mode: 'read' | 'write' }`.
 */
export function isWriteAccess(entry: Access, call: number, position: number): boolean {
  if (typeof entry !== 'object' || entry === null) {
    fail(`nodes[${call}].access[${position}]`, 'an object', entry);
  }
  const mode: unknown = entry.mode;
  if (mode !== 'write' && mode !== 'read') {
    fail(`nodes[${call}].access[${position}].mode`, "'read' or 'write'", mode);
  }
  const key: unknown = entry.key;
  if (typeof key !== 'string') fail(`nodes[${call}].access[${position}].key`, 'a string', key);
  return mode === 'write';
}

/** `after` lists earlier calls (integers from 0 below `i`); `afterPrevious` is a known source. */
function assertEdges(node: PlanNode, i: number): void {
  const after: unknown = node.after;
  if (after !== undefined) {
    if (!Array.isArray(after)) fail(`nodes[${i}].after`, 'an array of earlier calls', after);
    for (let e = 0; e < after.length; e++) {
      const call: unknown = after[e];
      if (typeof call !== 'number' || !Number.isInteger(call) || call < 0 || call >= i) {
        fail(`nodes[${i}].after[${e}]`, `an earlier call (an integer from 0 to ${i - 1})`, call);
      }
    }
  }
  const previous: unknown = node.afterPrevious;
  if (previous !== undefined && previous !== 'after-previous' && previous !== 'wait_for_previous') {
    fail(`nodes[${i}].afterPrevious`, "'after-previous' or 'wait_for_previous'", previous);
  }
}

function fail(field: string, expected: string, value: unknown): never {
  throw new PlannerError({
    code: 'invalid_nodes',
    message: `Expected \`${field}\` to be ${expected}, got ${describeValue(value)}`,
  });
}
