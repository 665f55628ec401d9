import { replaySession } from './replay-session.js';
import type { ScriptedTurn } from './scripted-session.js';

/** How a session's turns reach the dispatcher. */
export type TurnStrategy = 'whole turn + greedy waves' | 'streamed + eager';

/** One strategy's run of the whole session, summed over its turns. */
export interface StreamingRow {
  readonly strategy: TurnStrategy;
  readonly turns: number;
  /** From the model's first tool-call token to the last result, over all turns. */
  readonly latencyMs: number;
  /** Tool time after the model stopped writing, over all turns. */
  readonly afterWritingMs: number;
  /** How long the model wrote, over all turns (the same for both: the same script and rate). */
  readonly writingMs: number;
  /** Calls answered with an error. */
  readonly errors: number;
}

/** Options of {@link compareStreaming}. */
export interface CompareStreamingOptions {
  readonly turns: readonly ScriptedTurn[];
  readonly dir: string;
  readonly maxConcurrency: number;
  readonly latency: number;
  readonly tokensPerSecond: number;
  readonly signal?: AbortSignal;
  /** Called before each strategy's run. */
  readonly onProgress?: (strategy: TurnStrategy, done: number, total: number) => void;
}

const STRATEGIES: readonly { strategy: TurnStrategy; stream: boolean }[] = [
  { strategy: 'whole turn + greedy waves', stream: false },
  { strategy: 'streamed + eager', stream: true },
];

/**
 * Replays one session twice, one run after the other in this process, each on a fresh copy of
 * the sample workspace with the model writing at the same token rate and the same injected tool
 * latencies: once waiting for each whole turn and running it in greedy waves, once streaming each
 * call into the dispatcher (eager) the moment it is written.
 */
export async function compareStreaming(options: CompareStreamingOptions): Promise<StreamingRow[]> {
  const rows: StreamingRow[] = [];
  for (const [done, { strategy, stream }] of STRATEGIES.entries()) {
    options.onProgress?.(strategy, done, STRATEGIES.length);
    const session = await replaySession({
      turns: options.turns,
      dir: options.dir,
      planner: 'greedy',
      maxConcurrency: options.maxConcurrency,
      latency: options.latency,
      tokensPerSecond: options.tokensPerSecond,
      stream,
      signal: options.signal,
    });
    const sum = (figure: (turn: (typeof session.turns)[number]) => number) =>
      session.turns.reduce((total, turn) => total + figure(turn), 0);
    rows.push({
      strategy,
      turns: session.turns.length,
      latencyMs: sum((turn) => turn.latencyMs),
      afterWritingMs: sum((turn) => turn.afterWritingMs),
      writingMs: sum((turn) => turn.writingMs),
      errors: sum((turn) => turn.results.filter((result) => result.isError).length),
    });
  }
  return rows;
}
