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
  const { index, tool, input, estimateMs } = options;
  const base = { index, ...(estimateMs === undefined ? {} : { estimateMs }) };
  const unsafe: PlanNode = { ...base, parallelizable: false };
  if (tool === undefined) return unsafe;
  const validation = validateInput(tool, input);
  if (!validation.ok) return unsafe;
  const value = validation.value;
  try {
    if (tool.isConcurrencySafe?.(value) !== true) return unsafe;
    const node: { -readonly [K in keyof PlanNode]: PlanNode[K] } = {
      ...base,
      parallelizable: true,
    };
    const key = tool.resourceKey?.(value);
    if (key !== undefined) {
      if (typeof key !== 'string') return unsafe;
      node.resourceKey = key;
    }
    const access = tool.access?.(value);
    if (access !== undefined) {
      if (!isAccessList(access)) return unsafe;
      node.access = access;
    }
    return node;
  } catch {
    return unsafe;
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
