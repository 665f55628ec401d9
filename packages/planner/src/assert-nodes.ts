import { describeValue } from './describe-value.js';
import { PlannerError } from './planner-error.js';
import type { PlanNode } from './types.js';

/** What {@link assertNodes} checks beyond the shape every planner relies on. */
export interface AssertNodesOptions {
  /** Also check `estimateMs` (finite, from 0 up) — for the functions that read durations. */
  readonly estimates?: boolean;
}

/**
 * Checks, in one pass, what the planning functions consult: `nodes` is an array,
 * `nodes[i].index === i`, `parallelizable` is a boolean and, for concurrency-safe calls only
 * (the key is only consulted for them), `resourceKey` is a string and `access` a list of
 * `{ key: string, mode: 'read' | 'write' }`. Internal to the package.
 *
 * @throws {PlannerError} `invalid_nodes`, naming the field and the value.
 */
export function assertNodes(nodes: readonly PlanNode[], options: AssertNodesOptions = {}): void {
  if (!Array.isArray(nodes)) fail('nodes', 'an array', nodes);
  const estimates = options.estimates === true;
  for (let i = 0; i < nodes.length; i++) {
    const node: PlanNode | undefined = nodes[i];
    if (typeof node !== 'object' || node === null) fail(`nodes[${i}]`, 'an object', node);
    if (node.index !== i) fail(`nodes[${i}].index`, `${i}`, node.index);
    if (typeof node.parallelizable !== 'boolean') {
      fail(`nodes[${i}].parallelizable`, 'a boolean', node.parallelizable);
    }
    if (estimates) assertEstimate(node, i);
    if (node.parallelizable) assertAccesses(node, i);
  }
}

function assertEstimate(node: PlanNode, i: number): void {
  const estimate: unknown = node.estimateMs;
  if (estimate === undefined) return;
  if (typeof estimate !== 'number' || !Number.isFinite(estimate) || estimate < 0) {
    fail(`nodes[${i}].estimateMs`, 'a finite number from 0 and up', estimate);
  }
}

function assertAccesses(node: PlanNode, i: number): void {
  const key: unknown = node.resourceKey;
  if (key !== undefined && typeof key !== 'string') {
    fail(`nodes[${i}].resourceKey`, 'a string', key);
  }
  const access: unknown = node.access;
  if (access === undefined) return;
  if (!Array.isArray(access)) fail(`nodes[${i}].access`, 'an array', access);
  for (let a = 0; a < access.length; a++) {
    const entry: unknown = access[a];
    if (typeof entry !== 'object' || entry === null) {
      fail(`nodes[${i}].access[${a}]`, 'an object', entry);
    }
    const { key: entryKey, mode } = entry as { key?: unknown; mode?: unknown };
    if (typeof entryKey !== 'string') fail(`nodes[${i}].access[${a}].key`, 'a string', entryKey);
    if (mode !== 'read' && mode !== 'write') {
      fail(`nodes[${i}].access[${a}].mode`, "'read' or 'write'", mode);
    }
  }
}

function fail(field: string, expected: string, value: unknown): never {
  throw new PlannerError({
    code: 'invalid_nodes',
    message: `Expected \`${field}\` to be ${expected}, got ${describeValue(value)}`,
  });
}
