import type { Tool, ToolCall, ToolContext, ToolOutput, ToolRegistry } from '@toolwaves/core';
import {
  type Declarations,
  type EdgeFields,
  type FleetClaim,
  fleetClaimOf,
  type InputValidation,
  planNodeOf,
  validateInput,
} from '@toolwaves/core/internal';
import { type CallEdge, edgesOf, type PlanNode } from '@toolwaves/planner';
import { type CallLimits, callLimitsOf, type LimitCatalog, NO_LIMITS } from './call-limits.js';
import { CallOrdering } from './call-ordering.js';
import { declarationsOf } from './declarations-of.js';
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
  /** A call that is not concurrency-safe holds the namespace fleet-wide (else what it declares:
   * its declarations are then read whole, the key and accesses of an unsafe call too). */
  readonly fleetExclusiveForUnsafe: boolean;
  /** Per call, the earlier call with the same id, if any (a stream's set as calls arrive). */
  readonly repeats: readonly (number | undefined)[];
  /** The named limits the dispatcher knows; `undefined`: no call counts against any. */
  readonly limits?: LimitCatalog | undefined;
  /** Calls may carry the model's `wait_for_previous`: taken out of the input, made an edge. */
  readonly modelOrdering?: boolean | undefined;
}

// The calls of one batch, each resolved once: input validated on first need, plan node made once.
export class PreparedCalls {
  readonly registry: ToolRegistry;
  readonly health: ToolHealth | undefined;
  readonly executeOf: ((index: number) => ToolExecute | undefined) | undefined;
  readonly fleetExclusiveForUnsafe: boolean;
  readonly repeats: readonly (number | undefined)[];
  /** The calls as the model asked for them. */
  readonly calls: readonly ToolCall[];
  readonly #validations: (InputValidation<unknown> | undefined)[];
  readonly #nodes: (PlanNode | undefined)[];
  readonly #declarations: (Declarations | undefined)[];
  readonly #limitCatalog: LimitCatalog | undefined;
  readonly #limits: (CallLimits | undefined)[] = [];
  readonly #ordering: CallOrdering;
  /** Per call, the tool its own name asks for (`null`: none), looked up once. */
  readonly #tools: (Tool | null | undefined)[] = [];

  constructor(options: PreparedCallsOptions) {
    this.#limitCatalog = options.limits;
    this.registry = options.registry;
    this.health = options.health;
    this.executeOf = options.executeOf;
    this.fleetExclusiveForUnsafe = options.fleetExclusiveForUnsafe;
    this.repeats = options.repeats;
    this.calls = options.calls;
    this.#ordering = new CallOrdering({
      registry: options.registry,
      calls: options.calls,
      modelOrdering: options.modelOrdering === true,
    });
    const count = options.calls.length;
    this.#validations = new Array<InputValidation<unknown> | undefined>(count);
    this.#nodes = new Array<PlanNode | undefined>(count);
    this.#declarations = new Array<Declarations | undefined>(count);
  }

  /** Call `index`'s input checked against its tool's schema, once; `undefined` for an unknown tool. */
  validation(index: number): InputValidation<unknown> | undefined {
    const known = this.#validations[index];
    if (known !== undefined) return known;
    const tool = this.tool(index);
    if (tool === undefined) return undefined;
    const invalid = this.#ordering.invalid(index);
    const validation: InputValidation<unknown> =
      invalid === undefined
        ? validateInput(tool, this.inputOf(index))
        : { ok: false, message: `Invalid input for tool \`${tool.name}\`: ${invalid}` };
    this.#validations[index] = validation;
    return validation;
  }

  /** Call `index`'s input as its tool sees it: without `wait_for_previous` (`modelOrdering`). */
  inputOf(index: number): unknown {
    return this.#ordering.inputOf(index);
  }

  /**
   * Call `index`'s ordering edges: its `after` ids, its tool's `runs: 'after-previous'`, the
   * model's `wait_for_previous`; `undefined` when it has none.
   * @throws ToolwavesError `invalid_call` when `after` names no earlier call (a stream's check).
   */
  edges(index: number): EdgeFields | undefined {
    return this.#ordering.edges(index);
  }

  /** Call `index`'s declarations, read once (its input validated on the way): its plan node and
   * its fleet claim are both made from them. */
  declarations(index: number): Declarations {
    let declarations = this.#declarations[index];
    if (declarations === undefined) {
      const tool = this.tool(index);
      declarations = declarationsOf(tool, this.validation(index), this.fleetExclusiveForUnsafe);
      this.#declarations[index] = declarations;
    }
    return declarations;
  }

  /** Call `index`'s plan node, made once from its declarations (a repeated id runs nothing, so
   * it conflicts with nothing). */
  node(index: number): PlanNode {
    let node = this.#nodes[index];
    if (node === undefined) {
      node =
        this.repeats[index] !== undefined
          ? { index, parallelizable: true }
          : planNodeOf({
              index,
              declarations: this.declarations(index),
              estimateMs: this.health?.estimateMs(String(this.calls[index]!.name)),
              edges: this.edges(index),
            });
      this.#nodes[index] = node;
    }
    return node;
  }

  /**
   * The named limits call `index` counts against, read once (none for an unknown tool, an input
   * that fails the schema, or a repeated id: such a call never runs its tool).
   * @throws DispatchError `invalid_config` for a wrong declaration (see `callLimitsOf`).
   */
  limits(index: number): CallLimits {
    const catalog = this.#limitCatalog;
    if (catalog === undefined) return NO_LIMITS;
    let limits = this.#limits[index];
    if (limits === undefined) {
      const call = this.calls[index]!;
      const tool = this.tool(index);
      const validation = tool === undefined ? undefined : this.validation(index);
      limits =
        tool === undefined || validation?.ok !== true || this.repeats[index] !== undefined
          ? NO_LIMITS
          : callLimitsOf({ tool, input: validation.value, catalog, toolCallId: call.id });
      this.#limits[index] = limits;
    }
    return limits;
  }

  /** The tool call `index` runs as its own name says (a correction may name another). */
  tool(index: number): Tool | undefined {
    let tool = this.#tools[index];
    if (tool === undefined) {
      tool = this.toolOf(index, String(this.calls[index]!.name)) ?? null;
      this.#tools[index] = tool;
    }
    return tool ?? undefined;
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
  /** The earlier call with the same id: this one is answered with a soft error, never run. */
  readonly repeatOf: number | undefined;
  readonly #batch: PreparedCalls;
  readonly #corrected: boolean;
  #validation: InputValidation<unknown> | undefined;
  #node: PlanNode | undefined;
  #read: Declarations | undefined;

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
        : batch.inputOf(index);
    this.givenExecute = batch.executeOf?.(index);
    this.repeatOf = batch.repeats[index];
    this.tool = correction === undefined ? batch.tool(index) : batch.toolOf(index, this.toolName);
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
    this.#node ??= planNodeOf({
      index: this.index,
      declarations: this.#declarations(),
      estimateMs: this.#batch.health?.estimateMs(this.toolName),
      edges: this.#batch.edges(this.index),
    });
    return this.#node;
  }

  /** The named limits the call counts against (its first reading: a correction keeps them). */
  get limits(): CallLimits {
    return this.#batch.limits(this.index);
  }

  /** The call's ordering edges, one per earlier call it follows (`undefined`: none). */
  get edges(): readonly CallEdge[] | undefined {
    const fields = this.#batch.edges(this.index);
    if (fields === undefined) return undefined;
    return edgesOf({ index: this.index, parallelizable: true, ...fields });
  }

  /** What the call holds fleet-wide: built from the same reading of its declarations as its plan
   * node, so a call that runs alone here excludes every other call of the fleet it may touch. */
  get fleetClaim(): FleetClaim {
    return fleetClaimOf(this.#declarations(), {
      exclusiveForUnsafe: this.#batch.fleetExclusiveForUnsafe,
    });
  }

  /** The call's declarations as read for it (its corrected input's, after a correction). */
  get declarations(): Declarations {
    return this.#declarations();
  }

  /** The call's declarations, read once (once per call, and once per corrected input). */
  #declarations(): Declarations {
    if (!this.#corrected) return this.#batch.declarations(this.index);
    this.#read ??= declarationsOf(this.tool, this.validation, this.#batch.fleetExclusiveForUnsafe);
    return this.#read;
  }
}

/** A tool only the caller knows (no schema): the implementation given with its call. */
function undeclaredTool(name: string, execute: ToolExecute): Tool {
  return { name, description: name, execute };
}
