import type { PlanNode } from '@toolwaves/planner';
import type { Container } from 'inversify';
import { asTool } from './as-tool.js';
import { CallEdges, edgeFields } from './call-edges.js';
import { checkOptions } from './check-options.js';
import { optionRules } from './option-rule.js';
import { planNodeForCall } from './plan-node-for-call.js';
import type { Tool } from './tool.js';
import type { ToolCall } from './tool-call.js';
import { TOOL } from './tool-token.js';
import { invalidOptions, ToolwavesError } from './toolwaves-error.js';
import { takeWaitForPrevious } from './wait-for-previous.js';

/** Options of {@link ToolRegistry.toPlanNodes}. */
export interface ToPlanNodesOptions {
  /** Expected duration of a call (e.g. from the executor's health record), copied to `estimateMs`. */
  readonly estimateMs?: (call: ToolCall) => number | undefined;
  /**
   * The calls may carry `wait_for_previous` (the model was given it, `modelOrdering`): it is
   * taken out of each input and `true` makes the call follow every earlier one. Default `false`.
   */
  readonly modelOrdering?: boolean;
}

/**
 * The tools a dispatcher can call, by name.
 *
 * @example
 * ```ts
 * const container = new Container();
 * bindTools(container, [ReadFile, WriteFile]);
 * const registry = ToolRegistry.fromContainer(container).add(fnTool({ ... }));
 * registry.toPlanNodes(calls); // what the planner sees
 * ```
 */
export class ToolRegistry {
  readonly #tools = new Map<string, Tool>();

  /**
   * A registry of every tool bound in the container under {@link TOOL} (see `bindTools`).
   *
   * @throws ToolwavesError `duplicate_tool` when two bound tools share a name.
   */
  static fromContainer(container: Container): ToolRegistry {
    const registry = new ToolRegistry();
    const bound = container.isBound(TOOL) ? container.getAll(TOOL) : [];
    for (const instance of bound) registry.add(asTool(instance));
    return registry;
  }

  /**
   * Adds a tool.
   *
   * @throws ToolwavesError `duplicate_tool` naming the tool when one with that name is already here.
   */
  add(tool: Tool): this {
    const checked = asTool(tool);
    if (this.#tools.has(checked.name)) {
      throw new ToolwavesError({
        code: 'duplicate_tool',
        message: `A tool named \`${checked.name}\` is already registered`,
      });
    }
    this.#tools.set(checked.name, checked);
    return this;
  }

  /** The tool with that name, or `undefined`. */
  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** Every registered name, sorted. */
  names(): string[] {
    return [...this.#tools.keys()].sort();
  }

  /**
   * One {@link PlanNode} per call, in call order: what the planner sees. A call is not
   * concurrency-safe when its tool is unknown, its input fails the schema, or a declaration
   * throws; its key or access list is only asked for when it is safe. Ordering edges reach
   * the nodes: a call's `after` ids, its tool's `runs: 'after-previous'`, and with
   * `modelOrdering` the model's `wait_for_previous`.
   *
   * @throws ToolwavesError `invalid_call` when a call's `after` names an id that no earlier
   *   call has (naming the call and the id); `invalid_options` for unknown options.
   */
  toPlanNodes(calls: readonly ToolCall[], options: ToPlanNodesOptions = {}): PlanNode[] {
    checkOptions({
      subject: 'toPlanNodes',
      options,
      rules: { estimateMs: optionRules.function, modelOrdering: optionRules.boolean },
      error: invalidOptions,
    });
    const edges = new CallEdges({ calls, whole: true });
    const modelOrdering = options.modelOrdering === true;
    return calls.map((call, index) => {
      const tool = this.#tools.get(call.name);
      const taken = modelOrdering ? takeWaitForPrevious(call.input) : undefined;
      const waitForPrevious = taken?.waitForPrevious === true;
      return planNodeForCall({
        index,
        // A malformed `wait_for_previous` makes the input invalid: read as no tool, not safe.
        tool: taken?.invalid === undefined ? tool : undefined,
        input: taken === undefined ? call.input : taken.input,
        estimateMs: options.estimateMs?.(call),
        edges: edgeFields({ after: edges.after(index), tool, waitForPrevious }),
      });
    });
  }
}
