import type { Access, PlanNode } from '@toolwaves/planner';
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
}

/**
 * Asks a tool for its declarations about one call and turns them into a {@link PlanNode}.
 * Conservative on every doubt: an unknown tool, an input that fails the schema, a safety
 * predicate or key function that throws, or a malformed access list all make the call not
 * concurrency-safe. The key and access list are only asked for when the call is safe.
 */
export function planNodeForCall(options: PlanNodeForCallOptions): PlanNode {
  const { index, tool, input, inputValidated, estimateMs } = options;
  // Built as a literal and grown field by field (no object spread): planners read every node
  // several times, and V8 reads spread-built objects many times slower.
  const node: { -readonly [K in keyof PlanNode]: PlanNode[K] } = { index, parallelizable: false };
  if (estimateMs !== undefined) node.estimateMs = estimateMs;
  if (tool === undefined) return node;
  let value = input;
  if (inputValidated !== true) {
    const validation = validateInput(tool, input);
    if (!validation.ok) return node;
    value = validation.value;
  }
  try {
    if (tool.isConcurrencySafe?.(value) !== true) return node;
    const key = tool.resourceKey?.(value);
    if (key !== undefined && typeof key !== 'string') return node;
    const access = tool.access?.(value);
    if (access !== undefined && !isAccessList(access)) return node;
    node.parallelizable = true;
    if (key !== undefined) node.resourceKey = key;
    if (access !== undefined) node.access = access;
    return node;
  } catch {
    return node;
  }
}

function isAccessList(value: unknown): value is readonly Access[] {
  return (
    Array.isArray(value) &&
    value.every(
      (entry: Partial<Access> | null) =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof entry.key === 'string' &&
        (entry.mode === 'read' || entry.mode === 'write'),
    )
  );
}
