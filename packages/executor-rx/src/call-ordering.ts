import {
  type TakenWaitForPrevious,
  type ToolCall,
  type ToolRegistry,
  takeWaitForPrevious,
} from '@toolwaves/core';
import { CallEdges, type EdgeFields, edgeFields } from '@toolwaves/core/internal';

/** Options of {@link CallOrdering}. */
export interface CallOrderingOptions {
  readonly registry: ToolRegistry;
  /** The batch's calls (a stream's grow as they arrive). */
  readonly calls: readonly ToolCall[];
  /** Calls may carry the model's `wait_for_previous`: taken out of the input, made an edge. */
  readonly modelOrdering: boolean;
}

// The ordering edges of a batch's calls, each resolved once: `after` ids, a tool's
// `runs: 'after-previous'`, and (with `modelOrdering`) the model's `wait_for_previous`, which
// is taken out of the input the tool sees.
export class CallOrdering {
  readonly #options: CallOrderingOptions;
  readonly #callEdges: CallEdges;
  /** Per call, its input without `wait_for_previous`, once taken (`modelOrdering` only). */
  readonly #taken: (TakenWaitForPrevious | undefined)[] = [];
  /** Per call, its ordering edges (`null`: none), once resolved. */
  readonly #edges: (EdgeFields | null | undefined)[] = [];

  constructor(options: CallOrderingOptions) {
    this.#options = options;
    this.#callEdges = new CallEdges({ calls: options.calls });
  }

  /** Call `index`'s input as its tool sees it: without `wait_for_previous` (`modelOrdering`). */
  inputOf(index: number): unknown {
    const taken = this.#take(index);
    return taken === undefined ? this.#options.calls[index]!.input : taken.input;
  }

  /** Why call `index`'s `wait_for_previous` makes its input invalid (not a boolean), if it does. */
  invalid(index: number): string | undefined {
    return this.#take(index)?.invalid;
  }

  /**
   * Call `index`'s ordering edges; `undefined` when it has none.
   * @throws ToolwavesError `invalid_call` when `after` names no earlier call (a stream's check).
   */
  edges(index: number): EdgeFields | undefined {
    const known = this.#edges[index];
    if (known !== undefined) return known ?? undefined;
    const call = this.#options.calls[index]!;
    const fields = edgeFields({
      after: this.#callEdges.after(index),
      tool: this.#options.registry.get(String(call.name)),
      waitForPrevious: this.#take(index)?.waitForPrevious === true,
    });
    this.#edges[index] = fields ?? null;
    return fields;
  }

  #take(index: number): TakenWaitForPrevious | undefined {
    if (!this.#options.modelOrdering) return undefined;
    let taken = this.#taken[index];
    if (taken === undefined) {
      taken = takeWaitForPrevious(this.#options.calls[index]!.input);
      this.#taken[index] = taken;
    }
    return taken;
  }
}
