import { fnTool, type ToolCall, ToolRegistry, type WhileStreaming } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { Observable } from 'rxjs';
import type { RetriedStreamsFigures } from '../report/bench-report.js';
import { spreadOf } from '../simulate/summarize-strategies.js';
import {
  type ModelAttempt,
  type RetriedToolName,
  type RetriedTurn,
  retriedTurns,
} from './retried-turns.js';
import { VirtualClock } from './virtual-clock.js';

/** Options of {@link runRetriedStreams}. */
export interface RunRetriedStreamsOptions {
  readonly seeds: readonly number[];
  /** Turns per seed. */
  readonly turns: number;
  /** Share of model attempts whose stream fails mid-message. */
  readonly failShare: number;
  readonly tokensPerSecond: number;
  readonly maxConcurrency: number;
  /** Called after each seed and strategy. */
  readonly onRun?: ((done: number, total: number) => void) | undefined;
}

/** The values compared, in report order. */
const STRATEGIES: readonly WhileStreaming[] = ['all', 'read-only'];

/** What one turn measured. */
interface TurnFigures {
  /** From the first attempt's start to the last result of the attempt that completed, ms. */
  readonly turnMs: number;
  /** Tool time after the completed attempt's message ended, ms. */
  readonly afterStreamMs: number;
  /** Writes and commands whose tool started from an attempt that was then thrown away. */
  readonly discardedSideEffects: number;
}

/**
 * The retried-streams workload, run by the real `Dispatcher` on a virtual clock (the same seed
 * gives the same figures, whatever the machine's load): each turn's model attempts stream their
 * calls into `dispatchStream`; an attempt whose stream fails mid-message is thrown away and the
 * harness asks again at once. Each `whileStreaming` value runs the same turns, knowing only the
 * calls as they arrive and the tools' declarations (never whether the stream will fail, nor any
 * duration). Side effects are counted where they happen: a write or command tool's `execute`
 * starting for a call of a discarded attempt.
 *
 * @example
 * const figures = await runRetriedStreams({ seeds: [1, 2, 3], turns: 40, failShare: 0.3, tokensPerSecond: 80, maxConcurrency: 8 });
 */
export async function runRetriedStreams(
  options: RunRetriedStreamsOptions,
): Promise<RetriedStreamsFigures> {
  const { seeds, turns, failShare, tokensPerSecond, maxConcurrency } = options;
  const bySeed = seeds.map((seed) => retriedTurns({ seed, turns, failShare, tokensPerSecond }));
  const measured: TurnFigures[][][] = STRATEGIES.map(() => []);
  let done = 0;
  for (const [s, whileStreaming] of STRATEGIES.entries()) {
    for (const seedTurns of bySeed) {
      const figures: TurnFigures[] = [];
      for (const turn of seedTurns) {
        figures.push(await runTurn({ turn, whileStreaming, maxConcurrency }));
      }
      measured[s]!.push(figures);
      options.onRun?.(++done, STRATEGIES.length * seeds.length);
    }
  }
  const sum = (figures: readonly TurnFigures[], pick: (f: TurnFigures) => number): number =>
    figures.reduce((total, f) => total + pick(f), 0);
  const [all, readOnly] = measured as [TurnFigures[][], TurnFigures[][]];
  return {
    turns,
    failShare,
    attempts: spreadOf(bySeed.map((t) => t.reduce((n, turn) => n + turn.attempts.length, 0))),
    failedAttempts: spreadOf(
      bySeed.map((t) => t.reduce((n, turn) => n + turn.attempts.length - 1, 0)),
    ),
    strategies: STRATEGIES.map((whileStreaming, s) => ({
      whileStreaming,
      discardedSideEffects: spreadOf(
        measured[s]!.map((seed) => sum(seed, (f) => f.discardedSideEffects)),
      ),
      turnMs: spreadOf(measured[s]!.map((seed) => sum(seed, (f) => f.turnMs) / seed.length)),
      afterStreamMs: spreadOf(
        measured[s]!.map((seed) => sum(seed, (f) => f.afterStreamMs) / seed.length),
      ),
    })),
    readOnlyVersusAll: spreadOf(
      readOnly.map((seed, i) => sum(seed, (f) => f.turnMs) / sum(all[i]!, (f) => f.turnMs)),
    ),
  };
}

/** Reads run alongside each other; an edit writes its file; a command may do anything. */
const READS: ReadonlySet<RetriedToolName> = new Set(['read_file', 'grep']);

interface ToolInput {
  readonly file: string;
  readonly ms: number;
}

/** The workload's tools on `clock`; `started` hears every tool that starts, by call id. */
function retriedRegistry(
  clock: VirtualClock,
  started: (toolCallId: string, name: RetriedToolName) => void,
): ToolRegistry {
  const tool = (
    name: RetriedToolName,
    declare: Pick<Parameters<typeof fnTool<ToolInput>>[0], 'concurrencySafe' | 'access'>,
  ) =>
    fnTool<ToolInput>({
      name,
      description: name,
      ...declare,
      execute: async (input, context) => {
        started(context.toolCallId, name);
        await clock.sleep(input.ms, context.signal);
        return `${name} ${input.file}`;
      },
    });
  return new ToolRegistry()
    .add(
      tool('read_file', {
        concurrencySafe: true,
        access: (i) => [{ key: `fs:/${i.file}`, mode: 'read' }],
      }),
    )
    .add(tool('grep', { concurrencySafe: true, access: () => [{ key: 'fs:/', mode: 'read' }] }))
    .add(
      tool('edit_file', {
        concurrencySafe: true,
        access: (i) => [{ key: `fs:/${i.file}`, mode: 'write' }],
      }),
    )
    .add(tool('run_command', { concurrencySafe: false }));
}

/** One turn, one `whileStreaming` value, on a clock of its own. */
async function runTurn(options: {
  readonly turn: RetriedTurn;
  readonly whileStreaming: WhileStreaming;
  readonly maxConcurrency: number;
}): Promise<TurnFigures> {
  const { turn, whileStreaming, maxConcurrency } = options;
  const clock = new VirtualClock();
  let discardedSideEffects = 0;
  const registry = retriedRegistry(clock, (toolCallId, name) => {
    const attempt = turn.attempts[Number(toolCallId.split('-')[0]!.slice(1))]!;
    if (attempt.fails && !READS.has(name)) discardedSideEffects += 1;
  });
  const dispatcher = new Dispatcher({
    registry,
    mode: 'eager',
    maxConcurrency,
    scheduler: clock,
    whileStreaming,
  });
  let ended = { turnMs: 0, afterStreamMs: 0 };
  const harness = async (): Promise<void> => {
    let startMs = 0;
    for (const [k, attempt] of turn.attempts.entries()) {
      try {
        await dispatcher.dispatchStream(attemptSource({ clock, attempt, k, startMs }));
        const turnMs = clock.now();
        ended = { turnMs, afterStreamMs: turnMs - (startMs + attempt.endMs) };
        return;
      } catch (error) {
        if (!attempt.fails) throw error;
        startMs = clock.now(); // the harness asks the model again at once
      }
    }
  };
  const driven = harness();
  await clock.runUntilIdle();
  await driven;
  return { ...ended, discardedSideEffects };
}

/** Attempt `k`'s calls as the model streams them from `startMs`, then its end or failure. */
function attemptSource(options: {
  readonly clock: VirtualClock;
  readonly attempt: ModelAttempt;
  readonly k: number;
  readonly startMs: number;
}): Observable<ToolCall> {
  const { clock, attempt, k, startMs } = options;
  const at = (ms: number) => Math.max(0, startMs + ms - clock.now());
  return new Observable<ToolCall>((subscriber) => {
    const timers = attempt.calls.map((call, i) =>
      clock.schedule(
        () =>
          subscriber.next({
            id: `a${k}-c${i}`,
            name: call.name,
            input: { file: call.file, ms: call.ms },
          }),
        at(call.arrivalMs),
      ),
    );
    timers.push(
      clock.schedule(() => {
        if (!attempt.fails) subscriber.complete();
        else subscriber.error(new Error('overloaded_error: the stream broke off mid-message'));
      }, at(attempt.endMs)),
    );
    return () => {
      for (const timer of timers) timer.unsubscribe();
    };
  });
}
