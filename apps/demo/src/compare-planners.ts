import type { PlannerName } from './cli-options.js';
import { replaySession } from './replay-session.js';
import type { ScriptedTurn } from './scripted-session.js';

/** One planner's run of the whole session. */
export interface ComparisonRow {
  readonly planner: PlannerName;
  /** Waves over all turns. */
  readonly waves: number;
  readonly calls: number;
  readonly wallMs: number;
  /** Wall-clock of the `sequential` row divided by this one's (1 when there is no such row). */
  readonly speedup: number;
  /** Calls answered with an error. */
  readonly errors: number;
}

/** Options of {@link comparePlanners}. */
export interface ComparePlannersOptions {
  /** The session's turns, replayed as they were asked. */
  readonly turns: readonly ScriptedTurn[];
  /** Folder of the session inside the root ('.' for the root itself). */
  readonly dir: string;
  readonly planners: readonly PlannerName[];
  readonly maxConcurrency: number;
  readonly latency: number;
  /** Stops the comparison: the running replay rejects with the dispatcher's `cancelled` error. */
  readonly signal?: AbortSignal;
  /** Called before each planner's run. */
  readonly onProgress?: (planner: PlannerName, done: number, total: number) => void;
}

/**
 * Replays one session under each planner, one after another in this process, each on a fresh
 * copy of the sample workspace with the same injected latencies, whole turns at once (the
 * planners plan whole turns): the wall-clock figures are measured side by side.
 */
export async function comparePlanners(options: ComparePlannersOptions): Promise<ComparisonRow[]> {
  const measured: Omit<ComparisonRow, 'speedup'>[] = [];
  for (const [done, planner] of options.planners.entries()) {
    options.onProgress?.(planner, done, options.planners.length);
    const session = await replaySession({
      turns: options.turns,
      dir: options.dir,
      planner,
      maxConcurrency: options.maxConcurrency,
      latency: options.latency,
      tokensPerSecond: Number.POSITIVE_INFINITY,
      stream: false,
      signal: options.signal,
    });
    measured.push({
      planner,
      waves: session.turns.reduce((sum, turn) => sum + (turn.plan?.waves.length ?? 0), 0),
      calls: session.turns.reduce((sum, turn) => sum + turn.calls.length, 0),
      wallMs: session.wallMs,
      errors: session.turns.reduce(
        (sum, turn) => sum + turn.results.filter((r) => r.isError).length,
        0,
      ),
    });
  }
  const baseline = measured.find((row) => row.planner === 'sequential')?.wallMs;
  return measured.map((row) => ({
    ...row,
    speedup: baseline === undefined || row.wallMs === 0 ? 1 : baseline / row.wallMs,
  }));
}
