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
  if (!Array.isArray(nodes)) failList(nodes);
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
  // The common node (no edges, no estimate to check) in a few comparisons, small enough for the
  // compiler to inline into the planners' loops; anything else takes every check below.
  if (
    typeof node === 'object' &&
    node !== null &&
    node.index === i &&
    node.after === undefined &&
    node.afterPrevious === undefined &&
    !estimates &&
    (node.parallelizable === false ||
      (node.parallelizable === true &&
        (node.resourceKey === undefined || typeof node.resourceKey === 'string') &&
        (node.access === undefined || Array.isArray(node.access))))
  ) {
    return;
  }
  checkNode(node, i, estimates);
}

/** Every check of {@link assertNode}, in order: the first that fails throws. */
function checkNode(
  node: PlanNode | undefined,
  i: number,
  estimates: boolean,
): asserts node is PlanNode {
  if (typeof node !== 'object' || node === null)
    fail({ call: i, field: '', expected: 'an object', value: node });
  if (node.index !== i)
    fail({ call: i, field: '.index', expected: itsOwnIndex, value: node.index });
  if (typeof node.parallelizable !== 'boolean') {
    fail({ call: i, field: '.parallelizable', expected: 'a boolean', value: node.parallelizable });
  }
  if (estimates) {
    const estimate: unknown = node.estimateMs;
    if (
      estimate !== undefined &&
      (typeof estimate !== 'number' || !Number.isFinite(estimate) || estimate < 0)
    ) {
      fail({
        call: i,
        field: '.estimateMs',
        expected: 'a finite number from 0 and up',
        value: estimate,
      });
    }
  }
  assertEdges(node, i);
  if (!node.parallelizable) return;
  const key: unknown = node.resourceKey;
  if (key !== undefined && typeof key !== 'string') {
    fail({ call: i, field: '.resourceKey', expected: 'a string', value: key });
  }
  const access: unknown = node.access;
  if (access !== undefined && !Array.isArray(access)) {
    fail({ call: i, field: '.access', expected: 'an array', value: access });
  }
}

/**
 * Checks `nodes[call].access[position]` and tells whether it is a write.
 *
 * @throws {PlannerError} `invalid_nodes` unless it is `{ key: string, mode: 'read' | 'write' }`.
 */
export function isWriteAccess(entry: Access, call: number, position: number): boolean {
  if (typeof entry !== 'object' || entry === null) {
    fail({ call, field: '.access', position, expected: 'an object', value: entry });
  }
  const mode: unknown = entry.mode;
  if (mode !== 'write' && mode !== 'read') {
    fail({
      call,
      field: '.access',
      position,
      subfield: '.mode',
      expected: "'read' or 'write'",
      value: mode,
    });
  }
  const key: unknown = entry.key;
  if (typeof key !== 'string')
    fail({ call, field: '.access', position, subfield: '.key', expected: 'a string', value: key });
  return mode === 'write';
}

/** `after` lists earlier calls (integers from 0 below `i`); `afterPrevious` is a known source. */
function assertEdges(node: PlanNode, i: number): void {
  const after: unknown = node.after;
  if (after !== undefined) {
    if (!Array.isArray(after))
      fail({ call: i, field: '.after', expected: 'an array of earlier calls', value: after });
    for (let e = 0; e < after.length; e++) {
      const call: unknown = after[e];
      if (typeof call !== 'number' || !Number.isInteger(call) || call < 0 || call >= i) {
        fail({ call: i, field: '.after', position: e, expected: anEarlierCall, value: call });
      }
    }
  }
  const previous: unknown = node.afterPrevious;
  if (previous !== undefined && previous !== 'after-previous' && previous !== 'wait_for_previous') {
    fail({
      call: i,
      field: '.afterPrevious',
      expected: "'after-previous' or 'wait_for_previous'",
      value: previous,
    });
  }
}

// The checks above run for every call of every plan, so no part of a message is computed before
// a check fails: the field is named by numbers and literals, and the message is built in `fail`.
// (A template such as `nodes[${i}]` written in two branches let the compiler compute `${i}` once,
// ahead of both, for every call: a string allocated per call, 2.4 MB per 100 000 calls.)

/** A bad value of `nodes[call]`, at `field` (and at `[position]` + `subfield` below it). */
interface BadField {
  readonly call: number;
  /** `.index`, `.access`, ... (`''`: the node itself). */
  readonly field: string;
  /** What was expected, or how to say it from the call's position. */
  readonly expected: string | ((call: number) => string);
  readonly value: unknown;
  /** The entry of a list field (`access`, `after`). */
  readonly position?: number;
  readonly subfield?: string;
}

const itsOwnIndex = (call: number): string => `${call}`;
const anEarlierCall = (call: number): string =>
  `an earlier call (an integer from 0 to ${call - 1})`;

function fail(bad: BadField): never {
  const { call, field, expected, position, subfield = '' } = bad;
  const at = position === undefined ? '' : `[${position}]${subfield}`;
  const wanted = typeof expected === 'function' ? expected(call) : expected;
  throw new PlannerError({
    code: 'invalid_nodes',
    message: `Expected \`nodes[${call}]${field}${at}\` to be ${wanted}, got ${describeValue(bad.value)}`,
  });
}

function failList(nodes: unknown): never {
  throw new PlannerError({
    code: 'invalid_nodes',
    message: `Expected \`nodes\` to be an array, got ${describeValue(nodes)}`,
  });
}
