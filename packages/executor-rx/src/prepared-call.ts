import {
  type Access,
  type InputValidation,
  planNodeForCall,
  type Tool,
  type ToolCall,
  type ToolRegistry,
  validateInput,
} from '@toolwaves/core';
import { accessesOf, type PlanNode } from '@toolwaves/planner';
import type { RecoveryCorrection } from './reflector.js';
import type { ToolHealth } from './tool-health.js';

/** Options of {@link PreparedCall}. */
export interface PreparedCallOptions {
  readonly registry: ToolRegistry;
  readonly call: ToolCall;
  /** Position of the call in the batch. */
  readonly index: number;
  /** Fills the plan node's `estimateMs` from the tool's latency estimate. */
  readonly health?: ToolHealth | undefined;
  /** Another tool or input for a retry; the call's own otherwise. */
  readonly correction?: RecoveryCorrection | undefined;
}

/**
 * One call resolved once for planning and for its attempts: its tool (looked up once), its
 * input validated against the tool's schema (parsed once, on first need), and its plan node
 * (the tool's declarations for that parsed input, asked once, on first need). Planning reads
 * `node`; the first attempt reads `tool` and `validation` without parsing the input again.
 *
 * @example
 * ```ts
 * const prepared = new PreparedCall({ registry, call, index: 0 });
 * prepared.tool;        // undefined for an unknown tool
 * prepared.validation;  // { ok: true, value } or { ok: false, message }
 * prepared.node;        // what the planner sees
 * ```
 * @see runCall which runs it.
 */
export class PreparedCall {
  readonly index: number;
  /** The call as the model asked for it. */
  readonly call: ToolCall;
  /** The tool this call asks for (a recovery correction may differ from `call.name`). */
  readonly toolName: string;
  /** The input as given (a recovery correction may differ from `call.input`). */
  readonly input: unknown;
  /** The tool, or `undefined` when none has the name. */
  readonly tool: Tool | undefined;
  readonly #health: ToolHealth | undefined;
  #validation: InputValidation<unknown> | undefined;
  #node: PlanNode | undefined;
  #accesses: readonly Access[] | undefined;

  constructor(options: PreparedCallOptions) {
    const { call, correction } = options;
    this.index = options.index;
    this.call = call;
    this.toolName =
      typeof correction?.toolName === 'string' ? correction.toolName : String(call.name);
    this.input =
      correction !== undefined && Object.hasOwn(correction, 'input')
        ? correction.input
        : call.input;
    this.tool = options.registry.get(this.toolName);
    this.#health = options.health;
  }

  /** The input checked against the tool's schema; `undefined` for an unknown tool. */
  get validation(): InputValidation<unknown> | undefined {
    if (this.tool === undefined) return undefined;
    this.#validation ??= validateInput(this.tool, this.input);
    return this.#validation;
  }

  /** What the planner sees of this call (not concurrency-safe on any doubt). */
  get node(): PlanNode {
    if (this.#node !== undefined) return this.#node;
    const validation = this.validation;
    const estimateMs = this.#health?.estimateMs(this.toolName);
    this.#node =
      validation?.ok === true
        ? planNodeForCall({
            index: this.index,
            tool: this.tool,
            input: validation.value,
            inputValidated: true,
            estimateMs,
          })
        : planNodeForCall({ index: this.index, tool: undefined, input: undefined, estimateMs });
    return this.#node;
  }

  /**
   * What the call declared it touches, for a fleet coordinator: the node's accesses, or, for a
   * call that is not concurrency-safe, whatever `access` / `resourceKey` declare (empty when
   * nothing is declared or a declaration throws).
   */
  get accesses(): readonly Access[] {
    this.#accesses ??= this.node.parallelizable ? accessesOf(this.node) : this.#declared();
    return this.#accesses;
  }

  #declared(): readonly Access[] {
    const tool = this.tool;
    const validation = this.validation;
    if (tool === undefined || validation?.ok !== true) return [];
    const declared: Access[] = [];
    try {
      const key = tool.resourceKey?.(validation.value);
      if (typeof key === 'string') declared.push({ key, mode: 'write' });
      const access = tool.access?.(validation.value);
      if (Array.isArray(access)) {
        for (const entry of access as readonly Partial<Access>[]) {
          if (typeof entry?.key === 'string' && (entry.mode === 'read' || entry.mode === 'write')) {
            declared.push({ key: entry.key, mode: entry.mode });
          }
        }
      }
    } catch {
      return declared;
    }
    return declared;
  }
}
