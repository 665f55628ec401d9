import type {
  Access,
  Tool,
  ToolCall,
  ToolContext,
  ToolOutput,
  ToolRegistry,
} from '@toolwaves/core';
import { type InputValidation, planNodeForCall, validateInput } from '@toolwaves/core/internal';
import { accessesOf, type PlanNode } from '@toolwaves/planner';
import type { RecoveryCorrection } from './reflector.js';
import type { ToolHealth } from './tool-health.js';

/** An implementation that runs in place of a tool's own `execute` (a turn's `run(call, execute)`). */
export type ToolExecute = (
  input: unknown,
  context: ToolContext,
) => Promise<string | ToolOutput> | string | ToolOutput;

/** Options of {@link PreparedCalls}. */
export interface PreparedCallsOptions {
  readonly registry: ToolRegistry;
  readonly calls: readonly ToolCall[];
  /** Fills the plan nodes' `estimateMs` from the tools' latency estimates. */
  readonly health?: ToolHealth | undefined;
  /** The implementation given with call `index`, if any (turns). */
  readonly executeOf?: ((index: number) => ToolExecute | undefined) | undefined;
}

// The calls of one batch, each resolved once: input validated on first need, plan node made once.
export class PreparedCalls {
  readonly registry: ToolRegistry;
  readonly health: ToolHealth | undefined;
  readonly executeOf: ((index: number) => ToolExecute | undefined) | undefined;
  /** The calls as the model asked for them. */
  readonly calls: readonly ToolCall[];
  readonly #validations: (InputValidation<unknown> | undefined)[];
  readonly #nodes: (PlanNode | undefined)[];

  constructor(options: PreparedCallsOptions) {
    this.registry = options.registry;
    this.health = options.health;
    this.executeOf = options.executeOf;
    this.calls = options.calls;
    const count = options.calls.length;
    this.#validations = new Array<InputValidation<unknown> | undefined>(count);
    this.#nodes = new Array<PlanNode | undefined>(count);
  }

  /** Call `index`'s input checked against its tool's schema, once; `undefined` for an unknown tool. */
  validation(index: number): InputValidation<unknown> | undefined {
    const known = this.#validations[index];
    if (known !== undefined) return known;
    const call = this.calls[index]!;
    const tool = this.toolOf(index, String(call.name));
    if (tool === undefined) return undefined;
    const validation = validateInput(tool, call.input);
    this.#validations[index] = validation;
    return validation;
  }

  /** Call `index`'s plan node, made once (its input validated on the way). */
  node(index: number): PlanNode {
    let node = this.#nodes[index];
    if (node === undefined) {
      const name = String(this.calls[index]!.name);
      node = nodeOf({
        index,
        tool: this.registry.get(name),
        validation: this.validation(index),
        estimateMs: this.health?.estimateMs(name),
      });
      this.#nodes[index] = node;
    }
    return node;
  }

  /** The tool call `index` runs as `name`: the registered one, or the one given with the call. */
  toolOf(index: number, name: string): Tool | undefined {
    const given = this.executeOf?.(index);
    return (
      this.registry.get(name) ?? (given === undefined ? undefined : undeclaredTool(name, given))
    );
  }

  /** Every call's plan node, in call order. */
  nodes(): PlanNode[] {
    const nodes = new Array<PlanNode>(this.calls.length);
    for (let i = 0; i < nodes.length; i++) nodes[i] = this.node(i);
    return nodes;
  }

  /** The {@link PreparedCall} of call `index` (what was already resolved for it is reused). */
  call(index: number): PreparedCall {
    return new PreparedCall(this, index);
  }
}

/** One call as its attempts see it: its tool, its validated input and its plan node. */
export class PreparedCall {
  readonly index: number;
  /** The call as the model asked for it. */
  readonly call: ToolCall;
  /** The tool this call asks for (a recovery correction may differ from `call.name`). */
  readonly toolName: string;
  /** The input as given (a recovery correction may differ from `call.input`). */
  readonly input: unknown;
  /** The tool, or `undefined` when none has the name and no implementation came with the call. */
  readonly tool: Tool | undefined;
  /** The implementation given with the call (a turn's), run in place of the tool's `execute`. */
  readonly givenExecute: ToolExecute | undefined;
  readonly #batch: PreparedCalls;
  readonly #corrected: boolean;
  #validation: InputValidation<unknown> | undefined;
  #node: PlanNode | undefined;

  /** Call `index` of `batch`, with `correction` applied when there is one. */
  constructor(batch: PreparedCalls, index: number, correction?: RecoveryCorrection) {
    const call = batch.calls[index]!;
    this.index = index;
    this.call = call;
    this.#batch = batch;
    this.#corrected = correction !== undefined;
    this.toolName =
      typeof correction?.toolName === 'string' ? correction.toolName : String(call.name);
    this.input =
      correction !== undefined && Object.hasOwn(correction, 'input')
        ? correction.input
        : call.input;
    this.givenExecute = batch.executeOf?.(index);
    this.tool = batch.toolOf(index, this.toolName);
  }

  /** This call with a recovery's `correction` applied on top of the corrections it already has. */
  corrected(correction: RecoveryCorrection): PreparedCall {
    return new PreparedCall(this.#batch, this.index, {
      toolName: typeof correction.toolName === 'string' ? correction.toolName : this.toolName,
      input: Object.hasOwn(correction, 'input') ? correction.input : this.input,
    });
  }

  /** The input checked against the tool's schema; `undefined` for an unknown tool. */
  get validation(): InputValidation<unknown> | undefined {
    if (!this.#corrected) return this.#batch.validation(this.index);
    if (this.tool === undefined) return undefined;
    this.#validation ??= validateInput(this.tool, this.input);
    return this.#validation;
  }

  /** What the planner sees of this call (not concurrency-safe on any doubt). */
  get node(): PlanNode {
    if (!this.#corrected) return this.#batch.node(this.index);
    this.#node ??= nodeOf({
      index: this.index,
      tool: this.tool,
      validation: this.validation,
      estimateMs: this.#batch.health?.estimateMs(this.toolName),
    });
    return this.#node;
  }

  // What the call asks a fleet coordinator for: its accesses (a call that is not concurrency-safe:
  // what it declares), `exclusive` when its declarations cannot be read (it fails closed).
  get fleetRequest(): FleetRequest {
    const node = this.node;
    if (node.parallelizable) return { access: accessesOf(node), exclusive: false };
    const tool = this.#batch.registry.get(this.toolName);
    const validation = this.validation;
    if (tool === undefined) return { access: [], exclusive: true };
    if (validation?.ok !== true) return { access: [], exclusive: false };
    return declaredAccesses(tool, validation.value);
  }
}

/** What a call asks a fleet coordinator for. */
export interface FleetRequest {
  readonly access: readonly Access[];
  readonly exclusive: boolean;
}

function declaredAccesses(tool: Tool, input: unknown): FleetRequest {
  const access: Access[] = [];
  try {
    tool.isConcurrencySafe?.(input);
    const key = tool.resourceKey?.(input);
    if (typeof key === 'string') access.push({ key, mode: 'write' });
    else if (key !== undefined) return { access: [], exclusive: true };
    const declared = tool.access?.(input);
    if (declared === undefined) return { access, exclusive: false };
    if (!Array.isArray(declared)) return { access: [], exclusive: true };
    for (const entry of declared as readonly Partial<Access>[]) {
      if (typeof entry?.key !== 'string' || (entry.mode !== 'read' && entry.mode !== 'write')) {
        return { access: [], exclusive: true };
      }
      access.push({ key: entry.key, mode: entry.mode });
    }
    return { access, exclusive: false };
  } catch {
    return { access: [], exclusive: true };
  }
}

/** A tool only the caller knows (no schema): the implementation given with its call. */
function undeclaredTool(name: string, execute: ToolExecute): Tool {
  return { name, description: name, execute };
}

/** Options of {@link nodeOf}. */
interface NodeOfOptions {
  readonly index: number;
  readonly tool: Tool | undefined;
  /** `undefined` for an unknown tool. */
  readonly validation: InputValidation<unknown> | undefined;
  readonly estimateMs: number | undefined;
}

/** A call's plan node from its validated input (not concurrency-safe when it is invalid). */
function nodeOf(options: NodeOfOptions): PlanNode {
  const { index, tool, validation, estimateMs } = options;
  return validation?.ok === true
    ? planNodeForCall({ index, tool, input: validation.value, inputValidated: true, estimateMs })
    : planNodeForCall({ index, tool: undefined, input: undefined, estimateMs });
}
