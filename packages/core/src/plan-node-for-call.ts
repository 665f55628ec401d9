import type { PlanNode } from '@toolwaves/planner';
import type { EdgeFields } from './call-edges.js';
import {
  type Declarations,
  readDeclarations,
  unreadableDeclarations,
} from './read-declarations.js';
import type { Tool } from './tool.js';
import { validateInput } from './validate-input.js';

/** Options of {@link planNodeForCall}. */
export interface PlanNodeForCallOptions {
  /** Position of the call in the batch. */
  readonly index: number;
  /** The call's tool; `undefined` when no tool has the call's name. */
  readonly tool: Tool | undefined;
  readonly input: unknown;
  /** `input` already passed `validateInput` for this tool (it is the parsed value): skip parsing it again. */
  readonly inputValidated?: boolean | undefined;
  /** Expected duration, copied into the node. */
  readonly estimateMs?: number | undefined;
  /** The call's ordering edges, copied into the node. */
  readonly edges?: EdgeFields | undefined;
}

/**
 * A call's {@link PlanNode}, from the tool's declarations about it ({@link readDeclarations}: the
 * same reading the fleet request is built from). Conservative on every doubt: an unknown tool,
 * an input that fails the schema, a safety predicate or declaration that throws, or a malformed
 * key or access list all make the call not concurrency-safe; the key and the access list reach
 * the node only when the call is safe.
 */
export function planNodeForCall(options: PlanNodeForCallOptions): PlanNode {
  const { index, tool, input, inputValidated, estimateMs, edges } = options;
  if (tool === undefined) {
    return planNodeOf({ index, estimateMs, edges, declarations: UNKNOWN_TOOL });
  }
  let value = input;
  if (inputValidated !== true) {
    const validation = validateInput(tool, input);
    if (!validation.ok) {
      return planNodeOf({ index, estimateMs, edges, declarations: INVALID_INPUT });
    }
    value = validation.value;
  }
  return planNodeOf({ index, estimateMs, edges, declarations: readDeclarations(tool, value) });
}

const UNKNOWN_TOOL = unreadableDeclarations('unknown_tool');
const INVALID_INPUT = unreadableDeclarations('invalid_input');

/** Options of {@link planNodeOf}. */
export interface PlanNodeOfOptions {
  /** Position of the call in the batch. */
  readonly index: number;
  /** The tool's declarations about the call. */
  readonly declarations: Declarations;
  /** Expected duration, copied into the node. */
  readonly estimateMs?: number | undefined;
  /** The call's ordering edges ({@link edgeFields}), copied into the node. */
  readonly edges?: EdgeFields | undefined;
}

/** The {@link PlanNode} of a call whose declarations were read. */
export function planNodeOf(options: PlanNodeOfOptions): PlanNode {
  const { index, declarations, estimateMs, edges } = options;
  // Built as a literal and grown field by field (no object spread): planners read every node
  // several times, and V8 reads spread-built objects many times slower.
  const node: { -readonly [K in keyof PlanNode]: PlanNode[K] } = { index, parallelizable: false };
  if (estimateMs !== undefined) node.estimateMs = estimateMs;
  // Edges hold whatever the declarations say: an unsafe or unknown call keeps them too.
  if (edges?.after !== undefined) node.after = edges.after;
  if (edges?.afterPrevious !== undefined) node.afterPrevious = edges.afterPrevious;
  if (!declarations.safe) return node;
  node.parallelizable = true;
  const { resourceKey, access } = declarations;
  if (resourceKey !== undefined) node.resourceKey = resourceKey;
  if (access !== undefined) node.access = access;
  return node;
}
