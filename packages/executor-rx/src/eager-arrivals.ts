import type { ToolCall } from '@toolwaves/core';
import { describeValue } from '@toolwaves/core/internal';
import { DependencyTracker, dependencies } from '@toolwaves/planner';
import { EMPTY, from, type Observable } from 'rxjs';
import type { BatchState } from './batch-state.js';
import { DispatchError } from './dispatch-error.js';
import type { DispatchEvent } from './dispatch-event.js';
import { type CallContext, runCall } from './run-call.js';
import type { EagerCall, EagerStart } from './schedule-eager.js';

/**
 * Turns a batch's tool calls into calls for {@link scheduleEager}: each one's index,
 * dependencies and work. A whole batch takes its dependencies from the planner's
 * `dependencies` at once; a stream's calls arrive one by one, each tracked by a
 * `DependencyTracker` (and checked: it must look like a tool call, and a second call with an id
 * already seen is a soft error that does not run). In `sequential` mode a stream's call waits
 * for the one before it.
 *
 * @see runEagerBatch which runs them.
 */
export class EagerArrivals {
  readonly #batch: BatchState;
  readonly #sequential: boolean;
  readonly #tracker = new DependencyTracker();
  /** The ids seen (a set, not a map to the first index: that one is looked up on a duplicate). */
  readonly #ids = new Set<string>();
  /** Where calls run when nobody sees their events: one context for every call of the batch. */
  readonly #quiet: CallContext | undefined;

  constructor(batch: BatchState, sequential: boolean) {
    this.#batch = batch;
    this.#sequential = sequential;
    this.#quiet =
      batch.progressEvents || batch.instrument !== undefined
        ? undefined
        : { batch, wave: undefined, readyAt: batch.startedAt, eager: undefined };
  }

  /** The dependencies of a whole batch, from the planner (plan nodes with latency estimates). */
  planWhole(): number[][] {
    return dependencies(this.#batch.prepared.nodes());
  }

  /**
   * Call `index` of a whole batch, with its planned dependencies. (Ids are checked for streams
   * only, where calls arrive one by one: a whole batch runs every call, as waves do.)
   */
  planned(index: number, waits: readonly number[]): EagerCall<DispatchEvent> {
    return this.#eagerCall(index, waits, index, this.#batch.startedAt);
  }

  /** A call of a stream arrives: its slot, its dependencies (tracked now), its work. */
  arrive(call: ToolCall): EagerCall<DispatchEvent> {
    const batch = this.#batch;
    checkCall(call, batch.calls.length);
    const index = batch.arrive(call);
    const firstIndex = this.#firstWithId(index);
    // A duplicate does not run, but takes its place in the order like a keyless call.
    const rules =
      this.#sequential && batch.gate === undefined
        ? undefined
        : this.#tracker.add(
            firstIndex === index ? batch.prepared.node(index) : { index, parallelizable: true },
          );
    if (rules !== undefined) batch.recordDependencies(index, rules);
    const waits = this.#sequential ? (index === 0 ? [] : [index - 1]) : rules!;
    // Arrival times only show in events (`waitedMs`, `waitMs`): no clock reading without them.
    const arrivedAt =
      batch.progressEvents || batch.instrument !== undefined ? batch.now() : batch.startedAt;
    return this.#eagerCall(index, waits, firstIndex, arrivedAt);
  }

  /** The index of the first call with call `index`'s id (itself when it is the first). */
  #firstWithId(index: number): number {
    const calls = this.#batch.calls;
    const id = calls[index]!.id;
    const ids = this.#ids;
    const seen = ids.size;
    // One lookup: the set grows unless the id was already in it.
    if (ids.add(id).size !== seen) return index;
    return calls.findIndex((call) => call.id === id);
  }

  #eagerCall(
    index: number,
    waits: readonly number[],
    firstIndex: number,
    arrivedAt: number,
  ): EagerCall<DispatchEvent> {
    const batch = this.#batch;
    return firstIndex === index
      ? new DispatchedCall(
          batch,
          index,
          waits,
          batch.prepared.node(index).estimateMs,
          arrivedAt,
          this.#quiet,
        )
      : new DuplicateCall(batch, index, waits, firstIndex, arrivedAt);
  }
}

/** A call that runs through the per-call pipeline when {@link scheduleEager} starts it. */
class DispatchedCall implements EagerCall<DispatchEvent> {
  readonly index: number;
  readonly dependencies: readonly number[];
  readonly estimateMs: number | undefined;
  readonly #batch: BatchState;
  readonly #arrivedAt: number;
  /** The batch's shared context when nobody sees the events (which alone tell the wait). */
  readonly #quiet: CallContext | undefined;

  constructor(
    batch: BatchState,
    index: number,
    dependencies: readonly number[],
    estimateMs: number | undefined,
    arrivedAt: number,
    quiet: CallContext | undefined,
  ) {
    this.#batch = batch;
    this.index = index;
    this.dependencies = dependencies;
    this.estimateMs = estimateMs;
    this.#arrivedAt = arrivedAt;
    this.#quiet = quiet;
  }

  run(start: EagerStart): Observable<DispatchEvent> {
    const batch = this.#batch;
    const prepared = batch.prepared.call(this.index);
    const quiet = this.#quiet;
    if (quiet !== undefined) return runCall(prepared, quiet);
    const arrivedAt = this.#arrivedAt;
    return runCall(prepared, {
      batch,
      wave: undefined,
      readyAt: arrivedAt,
      eager: { arrivedAt, waitedFor: start.waitedFor },
    });
  }
}

/** A call whose id an earlier call already has: a soft error naming the id, not run. */
class DuplicateCall implements EagerCall<DispatchEvent> {
  readonly index: number;
  readonly dependencies: readonly number[];
  readonly #batch: BatchState;
  readonly #firstIndex: number;
  readonly #arrivedAt: number;

  constructor(
    batch: BatchState,
    index: number,
    dependencies: readonly number[],
    firstIndex: number,
    arrivedAt: number,
  ) {
    this.#batch = batch;
    this.index = index;
    this.dependencies = dependencies;
    this.#firstIndex = firstIndex;
    this.#arrivedAt = arrivedAt;
  }

  run(start: EagerStart): Observable<DispatchEvent> {
    const batch = this.#batch;
    const index = this.index;
    const call = batch.calls[index]!;
    const toolName = String(call.name);
    const content = `Duplicate tool call id \`${call.id}\`: call ${this.#firstIndex} has the same id, so call ${index} (\`${toolName}\`) was not run`;
    batch.answered(index, {
      toolCallId: call.id,
      toolName,
      content,
      isError: true,
      durationMs: 0,
    });
    if (!batch.progressEvents) return EMPTY;
    const waitedMs = batch.now() - this.#arrivedAt;
    const common = { wave: undefined, index, toolCallId: call.id, toolName, attempt: 1 } as const;
    return from<DispatchEvent[]>([
      {
        type: 'call-start',
        ...common,
        input: call.input,
        fleetWaitMs: 0,
        waitedFor: start.waitedFor,
        waitedMs,
      },
      {
        type: 'call-end',
        ...common,
        outcome: 'error',
        isError: true,
        content,
        durationMs: 0,
        waitMs: waitedMs,
      },
    ]);
  }
}

/** A stream's element must look like a tool call (string `id` and `name`). */
function checkCall(call: unknown, index: number): asserts call is ToolCall {
  const candidate = call as Partial<ToolCall> | null;
  if (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.id === 'string' &&
    typeof candidate.name === 'string'
  ) {
    return;
  }
  throw new DispatchError({
    code: 'source_failed',
    message: `Expected call ${index} of the stream to be a tool call ({ id: string, name: string, input }), got ${describeValue(call)}`,
  });
}
