import type { ToolCall, ToolResult } from '@toolwaves/core';
import type { DispatchEvent, Dispatcher } from '@toolwaves/executor-rx';
import type { CallExplanation, Plan } from '@toolwaves/planner';
import type { Model } from './model.js';

/** One turn of a session: what the model asked, how it was planned, what came back. */
export interface TurnRecord {
  /** From 1. */
  readonly turn: number;
  readonly text: string | undefined;
  readonly calls: readonly ToolCall[];
  readonly plan: Plan;
  readonly explanation: readonly CallExplanation[];
  /** One per call, in the model's order. */
  readonly results: readonly ToolResult[];
  readonly wallMs: number;
}

/** A whole session. */
export interface SessionRecord {
  readonly turns: readonly TurnRecord[];
  /** The model's last words. */
  readonly finalText: string | undefined;
  readonly wallMs: number;
}

/** Options of {@link runAgentLoop}. */
export interface AgentLoopOptions {
  readonly model: Model;
  readonly dispatcher: Dispatcher;
  /** Sees every dispatch event as it happens, with the turn it belongs to. */
  readonly onEvent?: (event: DispatchEvent, turn: number) => void;
  /** Sees the model's words before the turn's calls run. */
  readonly onModelTurn?: (
    turn: number,
    text: string | undefined,
    calls: readonly ToolCall[],
  ) => void;
  /** Stops the session: the running batch rejects with the dispatcher's `cancelled` error. */
  readonly signal?: AbortSignal;
  /** Most turns before giving up. Default 50. */
  readonly maxTurns?: number;
  /** Clock for wall-clock figures. Default `performance.now`. */
  readonly now?: () => number;
}

/**
 * The agent loop: ask the model, run its calls through the dispatcher (planned waves, results in
 * the model's order), hand the results back, until the model makes no call.
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
    if (answer.calls.length === 0 || turn > maxTurns) {
      return { turns, finalText: answer.text, wallMs: now() - started };
    }
    options.onModelTurn?.(turn, answer.text, answer.calls);
    const turnStarted = now();
    const outcome = await runBatch({ ...options, calls: answer.calls, turn });
    turns.push({
      turn,
      text: answer.text,
      calls: answer.calls,
      plan: outcome.plan,
      explanation: outcome.explanation,
      results: outcome.results,
      wallMs: now() - turnStarted,
    });
    previous = outcome.results;
  }
}

function runBatch(
  options: AgentLoopOptions & { calls: readonly ToolCall[]; turn: number },
): Promise<{
  plan: Plan;
  explanation: readonly CallExplanation[];
  results: readonly ToolResult[];
}> {
  return new Promise((resolve, reject) => {
    let plan: Plan | undefined;
    let explanation: readonly CallExplanation[] = [];
    options.dispatcher
      .run(options.calls, options.signal === undefined ? {} : { signal: options.signal })
      .subscribe({
        next: (event) => {
          options.onEvent?.(event, options.turn);
          if (event.type === 'batch-start') {
            plan = event.plan;
            explanation = event.explanation;
          } else if (event.type === 'batch-end') {
            if (plan === undefined) {
              reject(new Error('dispatch ended without a batch-start event'));
              return;
            }
            resolve({ plan, explanation, results: event.results });
          }
        },
        error: reject,
      });
  });
}
