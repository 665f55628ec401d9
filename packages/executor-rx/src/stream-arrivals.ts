import type { ToolCall, ToolResult } from '@toolwaves/core';
import { describeValue } from '@toolwaves/core/internal';
import { DependencyTracker, type PlanNode } from '@toolwaves/planner';
import { from, type Observable } from 'rxjs';
import { DispatchError } from './dispatch-error.js';
import type { DispatchEvent } from './dispatch-event.js';

/** What {@link StreamArrivals.arrive} answers for an arriving call. */
export interface Arrival {
  readonly index: number;
  /** The earlier calls it waits for: by the rules, or, in sequential mode, the one before it. */
  readonly waits: readonly number[];
  /** Its dependencies by the rules (for the failure policy), when they were asked for. */
  readonly rules: readonly number[] | undefined;
  /** The first call with the same id, when this one repeats it (it does not run). */
  readonly duplicateOf: number | undefined;
}

/** Options of {@link StreamArrivals}. */
export interface StreamArrivalsOptions {
  /** The batch's calls: arrivals are appended. */
  readonly calls: ToolCall[];
  /** Call `index`'s plan node (after it was appended). */
  readonly nodeOf: (index: number) => PlanNode;
  /** Sequential mode: each call waits for the one before it. */
  readonly sequential: boolean;
  /** The dependencies by the rules are wanted even in sequential mode (the failure policy). */
  readonly rulesWanted: boolean;
}

/** The calls of a stream as they arrive. */
export class StreamArrivals {
  readonly #options: StreamArrivalsOptions;
  readonly #tracker = new DependencyTracker();
  /** The ids seen, in Sets by their last character code (one Set of thousands grows slowly). */
  readonly #ids = Array.from({ length: 32 }, () => new Set<string>());

  constructor(options: StreamArrivalsOptions) {
    this.#options = options;
  }

  /** @throws DispatchError `source_failed` for something that is not a tool call. */
  arrive(call: unknown): Arrival {
    const { calls, sequential, rulesWanted, nodeOf } = this.#options;
    const index = calls.length;
    checkCall(call, index);
    calls.push(call);
    const ids = this.#ids[call.id.charCodeAt(call.id.length - 1) & 31]!;
    const duplicateOf = ids.has(call.id) ? calls.findIndex((c) => c.id === call.id) : undefined;
    ids.add(call.id);
    const rules =
      sequential && !rulesWanted
        ? undefined
        : this.#tracker.add(
            duplicateOf === undefined ? nodeOf(index) : { index, parallelizable: true },
          );
    const waits = sequential ? (index === 0 ? [] : [index - 1]) : rules!;
    return { index, waits, rules, duplicateOf };
  }
}

/** The events of a call whose id an earlier call already has. */
export function duplicateCallEvents(options: {
  readonly call: ToolCall;
  readonly index: number;
  readonly firstIndex: number;
  readonly waitedFor: readonly number[];
  readonly waitedMs: number;
}): Observable<DispatchEvent> {
  const { call, index, firstIndex, waitedFor, waitedMs } = options;
  const toolName = String(call.name);
  const content = `Duplicate tool call id \`${call.id}\`: call ${firstIndex} has the same id, so call ${index} (\`${toolName}\`) was not run`;
  const result: ToolResult = {
    toolCallId: call.id,
    toolName,
    content,
    isError: true,
    durationMs: 0,
  };
  const common = { wave: undefined, index, toolCallId: call.id, toolName, attempt: 1 } as const;
  return from<DispatchEvent[]>([
    { type: 'call-start', ...common, input: call.input, fleetWaitMs: 0, waitedFor, waitedMs },
    {
      type: 'call-end',
      ...common,
      outcome: 'error',
      isError: true,
      content,
      durationMs: 0,
      waitMs: waitedMs,
      result,
    },
  ]);
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
