import type { PlanNode } from '@toolwaves/planner';
import type { Container } from 'inversify';
import { asTool } from './as-tool.js';
import { planNodeForCall } from './plan-node-for-call.js';
import type { Tool } from './tool.js';
import type { ToolCall } from './tool-call.js';
import { TOOL } from './tool-token.js';
import { ToolwavesError } from './toolwaves-error.js';

/** Options of {@link ToolRegistry.toPlanNodes}. */
export interface ToPlanNodesOptions {
  /** Expected duration of a call (e.g. from the executor's health record), copied to `estimateMs`. */
  readonly estimateMs?: (call: ToolCall) => number | undefined;
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
   * throws; its key or access list is only asked for when it is safe.
   */
  toPlanNodes(calls: readonly ToolCall[], options: ToPlanNodesOptions = {}): PlanNode[] {
    return calls.map((call, index) =>
      planNodeForCall({
        index,
        tool: this.#tools.get(call.name),
        input: call.input,
        estimateMs: options.estimateMs?.(call),
      }),
    );
  }
}
