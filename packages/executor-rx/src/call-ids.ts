import type { ToolCall, ToolResult } from '@toolwaves/core';
import { CallEdges, describeValue } from '@toolwaves/core/internal';
import { from, type Observable } from 'rxjs';
import { errorMessage } from './attempt-answer.js';
import type { CallPlace } from './call-batch.js';
import { DispatchError } from './dispatch-error.js';
import type { DispatchEvent } from './dispatch-event.js';

// One rule for every entry point (`dispatch`, `run`, streams, turns) and every mode: a call is an
// object with a string `id` and a string `name`, else the batch fails (a whole batch is
// refused before anything runs; a stream fails where the call arrives); a call whose id an
// earlier call of the batch already has is answered with a soft error and never runs (a provider
// would refuse a turn answering one id twice, and its answer could not be told apart).

/** Where a call came from, for the error of a call that is not one. */
export type CallOrigin = 'batch' | 'stream';

/**
 * Checks that `call` (position `index`) is a tool call.
 * @throws DispatchError `invalid_config` (a whole batch) or `source_failed` (a stream).
 */
export function checkCall(
  call: unknown,
  index: number,
  origin: CallOrigin,
): asserts call is ToolCall {
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
    code: origin === 'batch' ? 'invalid_config' : 'source_failed',
    message: `Expected call ${index} of the ${origin} to be a tool call ({ id: string, name: string, input }), got ${describeValue(call)}`,
  });
}

/** The ids of one batch's calls, as they come: tells a call that repeats an earlier id. */
export class CallIds {
  /** The ids seen, in Sets by their last character code (one Set of thousands grows slowly). */
  readonly #ids = Array.from({ length: 32 }, () => new Set<string>());

  /** The position of the first call with `call`'s id among `calls`, if it was seen; else notes it. */
  repeatOf(call: ToolCall, calls: readonly ToolCall[]): number | undefined {
    const { id } = call;
    const ids = this.#ids[id.charCodeAt(id.length - 1) & 31]!;
    // One lookup, not `has` then `add`: the id was seen when adding it leaves the size as it was.
    const size = ids.size;
    ids.add(id);
    return ids.size === size ? calls.findIndex((c) => c.id === id) : undefined;
  }
}

/**
 * Checks a whole batch's calls, and tells for each the earlier call with the same id, if any.
 * @throws DispatchError `invalid_config` naming the first call that is not a tool call.
 */
export function checkBatch(calls: readonly unknown[]): (number | undefined)[] {
  const ids = new CallIds();
  const repeats = new Array<number | undefined>(calls.length);
  let edged = false;
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index];
    checkCall(call, index, 'batch');
    repeats[index] = ids.repeatOf(call, calls as readonly ToolCall[]);
    if (call.after !== undefined) edged = true;
  }
  if (edged) checkBatchEdges(calls as readonly ToolCall[]);
  return repeats;
}

/**
 * Every `after` id of a whole batch names an earlier call of it (the whole batch is known, so a
 * later call's id is told apart, and a cycle shown).
 * @throws DispatchError `invalid_config` naming the call and the id.
 */
function checkBatchEdges(calls: readonly ToolCall[]): void {
  const edges = new CallEdges({ calls, whole: true });
  for (let index = 0; index < calls.length; index++) {
    try {
      edges.after(index);
    } catch (error) {
      throw new DispatchError({
        code: 'invalid_config',
        message: errorMessage(error),
        cause: error,
        toolCallId: calls[index]!.id,
        toolName: String(calls[index]!.name),
      });
    }
  }
}

/** Options of {@link repeatedCallEvents}. */
export interface RepeatedCallEventsOptions {
  readonly call: ToolCall;
  readonly index: number;
  /** The first call with the same id. */
  readonly firstIndex: number;
  /** Where the call's turn came. */
  readonly place: CallPlace;
  /** Now, on the dispatcher's clock. */
  readonly now: number;
}

/** The events of a call whose id an earlier call already has: a soft error, never run. */
export function repeatedCallEvents(options: RepeatedCallEventsOptions): Observable<DispatchEvent> {
  const { call, index, firstIndex, place, now } = options;
  const { wave, arrivedAt, waitedFor } = place;
  const toolName = String(call.name);
  const content = `Duplicate tool call id \`${call.id}\`: call ${firstIndex} has the same id, so call ${index} (\`${toolName}\`) was not run`;
  const result: ToolResult = {
    toolCallId: call.id,
    toolName,
    content,
    isError: true,
    durationMs: 0,
  };
  const common = { wave, index, toolCallId: call.id, toolName, attempt: 1 } as const;
  const waitedMs = now - (arrivedAt ?? place.readyAt);
  const start = { type: 'call-start', ...common, input: call.input, fleetWaitMs: 0 } as const;
  return from<DispatchEvent[]>([
    arrivedAt === undefined ? start : { ...start, waitedFor, waitedMs },
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
