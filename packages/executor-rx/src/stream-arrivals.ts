import type { ToolCall } from '@toolwaves/core';
import { DependencyTracker, type PlanNode } from '@toolwaves/planner';
import { errorMessage } from './attempt-answer.js';
import { CallIds, checkCall } from './call-ids.js';
import { DispatchError } from './dispatch-error.js';

/** What {@link StreamArrivals.arrive} answers for an arriving call. */
export interface Arrival {
  readonly index: number;
  /** The earlier calls it waits for: by the rules, or, in sequential mode, the one before it. */
  readonly waits: readonly number[];
  /** Its dependencies by the rules (for the failure policy), when they were asked for. */
  readonly rules: readonly number[] | undefined;
}

/** Options of {@link StreamArrivals}. */
export interface StreamArrivalsOptions {
  /** The batch's calls: arrivals are appended. */
  readonly calls: ToolCall[];
  /** Per call, the earlier call with the same id: each arrival's is set. */
  readonly repeats: (number | undefined)[];
  /** Call `index`'s plan node (after it was appended; a repeated call's runs nothing). */
  readonly nodeOf: (index: number) => PlanNode;
  /** Resolves call `index`'s ordering edges; throws when its `after` names no earlier call. */
  readonly edgesOf: (index: number) => unknown;
  /** Sequential mode: each call waits for the one before it. */
  readonly sequential: boolean;
  /** The dependencies by the rules are wanted even in sequential mode (the failure policy). */
  readonly rulesWanted: boolean;
}

/** The calls of a stream as they arrive. */
export class StreamArrivals {
  readonly #options: StreamArrivalsOptions;
  readonly #tracker = new DependencyTracker();
  readonly #ids = new CallIds();

  constructor(options: StreamArrivalsOptions) {
    this.#options = options;
  }

  /**
   * @throws DispatchError `source_failed` for something that is not a tool call, or a call whose
   *   `after` names no earlier call of the stream (naming the call and the id).
   */
  arrive(call: unknown): Arrival {
    const { calls, repeats, sequential, rulesWanted, nodeOf } = this.#options;
    const index = calls.length;
    checkCall(call, index, 'stream');
    calls.push(call);
    repeats[index] = this.#ids.repeatOf(call, calls);
    if (call.after !== undefined) {
      try {
        this.#options.edgesOf(index);
      } catch (error) {
        throw new DispatchError({
          code: 'source_failed',
          message: errorMessage(error),
          cause: error,
          toolCallId: call.id,
          toolName: String(call.name),
        });
      }
    }
    const rules = sequential && !rulesWanted ? undefined : this.#tracker.add(nodeOf(index));
    const waits = sequential ? (index === 0 ? [] : [index - 1]) : rules!;
    return { index, waits, rules };
  }
}
