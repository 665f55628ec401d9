import type { ToolCall, ToolResult } from '@toolwaves/core';
import type { DispatchEvent, Dispatcher } from '@toolwaves/executor-rx';
import type { CallExplanation, Plan } from '@toolwaves/planner';
import type { Model, TurnWriting } from './model.js';

/** One turn of a session: what the model asked, how it ran, what came back, and when. */
export interface TurnRecord {
  /** From 1. */
  readonly turn: number;
  readonly text: string | undefined;
  readonly calls: readonly ToolCall[];
  /** The waves the turn ran in (whole turns only: a streamed turn has none). */
  readonly plan: Plan | undefined;
  readonly explanation: readonly CallExplanation[];
  /** One per call, in the model's order. */
  readonly results: readonly ToolResult[];
  /** From the model starting the turn to the last result. */
  readonly wallMs: number;
  /** How long the model wrote the turn. */
  readonly writingMs: number;
  /** From the model's first tool-call token to the last result. */
  readonly latencyMs: number;
  /** Tool time after the model stopped writing: from its last token to the last result. */
  readonly afterWritingMs: number;
}

/** A whole session. */
export interface SessionRecord {
  readonly turns: readonly TurnRecord[];
  /** The model's last words. */
  readonly finalText: string | undefined;
  readonly wallMs: number;
}

/** A call the model has finished writing, for {@link AgentLoopOptions.onCallWritten}. */
export interface CallWritten {
  readonly turn: number;
  readonly index: number;
  readonly call: ToolCall;
  /** Since the model began the turn. */
  readonly atMs: number;
  readonly writing: TurnWriting;
}

/** Options of {@link runAgentLoop}. */
export interface AgentLoopOptions {
  readonly model: Model;
  readonly dispatcher: Dispatcher;
  /**
   * Hand each call to the dispatcher the moment the model has written it (`dispatchStream`:
   * eager, while later calls are still being written). Default false: wait for the whole turn,
   * then run it in the dispatcher's mode (waves in parallel mode).
   */
  readonly stream?: boolean;
  /** Sees every dispatch event as it happens, with the turn it belongs to. */
  readonly onEvent?: (event: DispatchEvent, turn: number) => void;
  /**
   * The model has finished writing a call; `atMs` is since it began the turn (index 0 is the
   * first sign of a turn with calls: its text is known by then).
   */
  readonly onCallWritten?: (written: CallWritten) => void;
  /** The model stopped writing a turn with calls (before its last results, when streamed). */
  readonly onTurnWritten?: (turn: number, writing: TurnWriting, calls: readonly ToolCall[]) => void;
  /** Stops the session: the running batch rejects with the dispatcher's `cancelled` error. */
  readonly signal?: AbortSignal;
  /** Most turns before giving up. Default 50. */
  readonly maxTurns?: number;
  /** Clock for the figures; the model's clock must be the same. Default `performance.now`. */
  readonly now?: () => number;
}

/** What running one turn's calls gave. */
interface TurnOutcome {
  readonly calls: readonly ToolCall[];
  readonly plan: Plan | undefined;
  readonly explanation: readonly CallExplanation[];
  readonly results: readonly ToolResult[];
}

/**
 * The agent loop: ask the model, run the turn's calls through the dispatcher — streamed, each
 * starting as soon as it is written and unblocked, or once the whole turn is written, in planned
 * waves —, hand the results back in the model's order, until the model makes no call.
 *
 * @example
 * ```ts
 * const session = await runAgentLoop({ model, dispatcher, onEvent: (event) => view.show(event) });
 * ```
 */
export async function runAgentLoop(options: AgentLoopOptions): Promise<SessionRecord> {
  const now = options.now ?? (() => performance.now());
  const maxTurns = options.maxTurns ?? 50;
  const started = now();
  const turns: TurnRecord[] = [];
  let previous: readonly ToolResult[] = [];
  for (let turn = 1; ; turn++) {
    const answer = await options.model.next(previous);
    const { writing } = answer;
    const written = (index: number, call: ToolCall) =>
      options.onCallWritten?.({ turn, index, call, atMs: now() - writing.startedAt, writing });
    const run = options.stream === true ? runStreamedTurn : runWholeTurn;
    const outcome = await run({ ...options, turn, writing, calls: answer.calls, written });
    if (outcome.calls.length === 0 || turn > maxTurns) {
      return { turns, finalText: writing.text, wallMs: now() - started };
    }
    const ended = now();
    const writtenAt = writing.endedAt ?? ended;
    turns.push({
      turn,
      text: writing.text,
      calls: outcome.calls,
      plan: outcome.plan,
      explanation: outcome.explanation,
      results: outcome.results,
      wallMs: ended - writing.startedAt,
      writingMs: writtenAt - writing.startedAt,
      latencyMs: ended - (writing.firstCallTokenAt ?? writing.startedAt),
      afterWritingMs: Math.max(0, ended - writtenAt),
    });
    previous = outcome.results;
  }
}

/** What running one turn needs. */
type TurnRun = AgentLoopOptions & {
  readonly turn: number;
  readonly writing: TurnWriting;
  readonly calls: AsyncIterable<ToolCall>;
  readonly written: (index: number, call: ToolCall) => void;
};

/**
 * The turn's calls as the model writes them, each told to `written` and kept in `calls`; once
 * the model stops writing a turn with calls, `onTurnWritten` is told.
 */
async function* recordWriting(options: TurnRun, calls: ToolCall[]): AsyncGenerator<ToolCall> {
  for await (const call of options.calls) {
    options.written(calls.length, call);
    calls.push(call);
    yield call;
  }
  if (calls.length > 0) options.onTurnWritten?.(options.turn, options.writing, calls);
}

/** Hands each call to the dispatcher's stream as the model writes it. */
async function runStreamedTurn(options: TurnRun): Promise<TurnOutcome> {
  const calls: ToolCall[] = [];
  const onEvent = options.onEvent;
  const results = await options.dispatcher.dispatchStream(recordWriting(options, calls), {
    signal: options.signal,
    onEvent: onEvent === undefined ? undefined : (event) => onEvent(event, options.turn),
  });
  return { calls, plan: undefined, explanation: [], results };
}

/** Waits for the whole turn, then runs its calls in the dispatcher's waves. */
async function runWholeTurn(options: TurnRun): Promise<TurnOutcome> {
  const calls: ToolCall[] = [];
  for await (const _call of recordWriting(options, calls)) {
    // Only read to the end: the calls are kept in `calls`.
  }
  return runBatch({ ...options, calls });
}

/** Runs a whole turn's calls, keeping the plan its `batch-start` event announced. */
async function runBatch(
  options: AgentLoopOptions & { calls: readonly ToolCall[]; turn: number },
): Promise<TurnOutcome> {
  if (options.calls.length === 0)
    return { calls: [], plan: undefined, explanation: [], results: [] };
  let plan: Plan | undefined;
  let explanation: readonly CallExplanation[] = [];
  const results = await options.dispatcher.dispatch(options.calls, {
    signal: options.signal,
    onEvent: (event) => {
      options.onEvent?.(event, options.turn);
      if (event.type === 'batch-start') {
        plan = event.plan;
        explanation = event.explanation;
      }
    },
  });
  return { calls: options.calls, plan, explanation, results };
}
