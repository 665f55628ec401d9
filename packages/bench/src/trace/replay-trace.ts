import { checkOptions, type OptionRule, optionRules } from '@toolwaves/core/internal';
import { conflicts, type PlanNode } from '@toolwaves/planner';
import { invalidOptions } from '../bench-error.js';
import type { TurnResult } from '../report/bench-report.js';
import { playTurn } from '../simulate/simulate-turn.js';
import { arrivalTimes, DEFAULT_TOKENS_PER_SECOND, withEstimates } from '../simulate/turn-inputs.js';
import { defaultStrategies } from '../strategies/default-strategies.js';
import type { Strategy } from '../strategies/strategy.js';
import { SeededRandom, seedFor } from '../workloads/seeded-random.js';
import type { ToolLatency } from '../workloads/tool-latency.js';
import type { Trace, TraceFormat } from './trace.js';
import {
  declareCall,
  TOOL_KIND_LATENCY,
  type ToolKind,
  type TraceMappings,
} from './trace-declarations.js';

/** One strategy's totals over a transcript's turns (ms; ratios `null` without greedy). */
export interface TraceStrategyFigures {
  readonly strategy: string;
  /** Σ turn time with every call known at once. */
  readonly makespanMs: number;
  /** Σ tool time after the model stopped writing, the calls streamed by the token model. */
  readonly afterStreamMs: number;
  /** Σ streamed turn time, from the first tool-call token to the last result. */
  readonly streamedMs: number;
  readonly versusGreedy: number | null;
  readonly afterStreamVersusGreedy: number | null;
  /** Conflicting pairs of calls that ran at the same time (batch and streamed). */
  readonly conflictingOverlaps: number;
}

/** Counts of a transcript, or of one model's turns in it. */
export interface TraceCounts {
  /** Model turns that asked for tools. */
  readonly turns: number;
  readonly calls: number;
  /** Turns with 2 calls or more. */
  readonly multiCallTurns: number;
  /** Pairs of calls of one turn that conflict (an unsafe call conflicts with every other). */
  readonly conflictingPairs: number;
}

/** What `pnpm bench --trace` writes to `trace-report.json`. */
export interface TraceReport {
  readonly meta: {
    readonly file: string;
    readonly command: string;
    readonly generatedAt: string;
    readonly maxConcurrency: number;
    readonly tokensPerSecond: number;
    readonly seed: number;
  };
  readonly trace: TraceCounts & {
    readonly format: TraceFormat;
    readonly errors: number;
    /** Calls whose duration came from the transcript; the rest from their kind's latency model. */
    readonly durationsFromTrace: number;
    readonly durationsFromModel: number;
    /** Tool names no mapping knows (not concurrency-safe), with their call counts. */
    readonly unknownTools: Readonly<Record<string, number>>;
    /** Shell calls (`Bash`, `run_command`, any call of kind `shell`), and how many are read-only. */
    readonly shellCalls: number;
    readonly shellReadOnly: number;
    readonly skipped: readonly string[];
  };
  readonly strategies: readonly TraceStrategyFigures[];
  /** The same per model, when the transcript names models. */
  readonly models: readonly (TraceCounts & {
    readonly model: string;
    readonly strategies: readonly TraceStrategyFigures[];
  })[];
}

/** Options of {@link replayTrace}. */
export interface ReplayTraceOptions {
  readonly trace: Trace;
  /** Default {@link defaultStrategies}. */
  readonly strategies?: readonly Strategy[];
  /** The user's declarations (a `--map` module), over the built-in ones. */
  readonly mappings?: TraceMappings;
  readonly maxConcurrency?: number;
  readonly tokensPerSecond?: number;
  /** The latency model per kind, over {@link TOOL_KIND_LATENCY} (sigma 0: always the median). */
  readonly latency?: Partial<Record<ToolKind, ToolLatency>>;
  /** Seeds the durations drawn from the latency model (default 1). */
  readonly seed?: number;
  readonly file?: string;
  readonly command?: string;
  readonly now?: () => Date;
}

/** What each option of {@link replayTrace} must be. */
const REPLAY_RULES = {
  trace: {
    expected: 'a Trace ({ format, turns }, as readTrace gives it)',
    test: (value): value is Trace =>
      optionRules.object.test(value) && Array.isArray((value as Partial<Trace>).turns),
  },
  strategies: optionRules.array,
  mappings: optionRules.object,
  maxConcurrency: optionRules.integerFrom(1),
  tokensPerSecond: optionRules.numberAbove(0),
  latency: optionRules.object,
  seed: optionRules.integerFrom(-(2 ** 53) + 1),
  file: optionRules.string,
  command: optionRules.string,
  now: optionRules.function,
} satisfies Record<keyof ReplayTraceOptions, OptionRule<unknown>>;

interface TurnRun {
  readonly model: string | undefined;
  readonly counts: TraceCounts;
  readonly batch: readonly TurnResult[];
  readonly stream: readonly TurnResult[];
}

/**
 * Replays a transcript through every strategy, batch and streamed: declarations by
 * {@link declareCall}, durations from the transcript or drawn (seeded) from the latency model of
 * their kind, estimates at the kind's median, arrivals from the token model.
 *
 * @throws {BenchError} `strategy_failed` naming the strategy and the turn.
 * @example replayTrace({ trace: readTrace(text) }).strategies.find((s) => s.strategy === 'eager');
 * @throws {BenchError} `invalid_options` for an unknown or wrong option, naming it and its value.
 */
export function replayTrace(options: ReplayTraceOptions): TraceReport {
  checkOptions({
    subject: 'replayTrace',
    options,
    rules: REPLAY_RULES,
    required: ['trace'],
    error: invalidOptions,
  });
  const { trace } = options;
  const strategies = options.strategies ?? defaultStrategies();
  const maxConcurrency = options.maxConcurrency ?? 8;
  const tokensPerSecond = options.tokensPerSecond ?? DEFAULT_TOKENS_PER_SECOND;
  const seed = options.seed ?? 1;
  const latency = { ...TOOL_KIND_LATENCY, ...options.latency };
  const unknownTools: Record<string, number> = {};
  let fromTrace = 0;
  let callIndex = 0;
  const shell = { calls: 0, readOnly: 0 };
  const runs = trace.turns.map((turn, position): TurnRun => {
    const declared = turn.calls.map((call) => {
      const declaration = declareCall(call, {
        cwd: trace.cwd,
        ...(options.mappings === undefined ? {} : { mappings: options.mappings }),
      });
      if (!declaration.known) unknownTools[call.name] = (unknownTools[call.name] ?? 0) + 1;
      if (declaration.kind === 'shell') {
        shell.calls++;
        if (declaration.concurrencySafe) shell.readOnly++;
      }
      return { ...declaration, model: latency[declaration.kind ?? 'other'] };
    });
    const durationsMs = turn.calls.map((call, slot) => {
      const random = new SeededRandom(seedFor({ seed, stream: 'trace', item: callIndex++ }));
      if (call.durationMs === undefined) return random.duration(declared[slot]!.model);
      fromTrace++;
      return call.durationMs;
    });
    const nodes = declared.map(({ concurrencySafe, access }, index): PlanNode => {
      const node = { index, parallelizable: concurrencySafe };
      return access === undefined || access.length === 0 ? node : { ...node, access };
    });
    const played = playTurn({
      strategies,
      estimated: withEstimates(
        nodes,
        declared.map(({ model }) => model.medianMs),
      ),
      actual: withEstimates(nodes, durationsMs),
      arrivalMs: arrivalTimes({
        argumentChars: turn.calls.map((call) => JSON.stringify(call.input ?? null).length),
        tokensPerSecond,
      }),
      maxConcurrency,
      where: `turn ${position + 1} of the trace (${turn.calls.length} calls)`,
    });
    return { model: turn.model, counts: countsOf(nodes), ...played };
  });
  const models = [...new Set(runs.map((run) => run.model).filter((model) => model !== undefined))];
  return {
    meta: {
      file: options.file ?? '(in memory)',
      command: options.command ?? 'pnpm bench --trace',
      generatedAt: (options.now?.() ?? new Date()).toISOString(),
      maxConcurrency,
      tokensPerSecond,
      seed,
    },
    trace: {
      format: trace.format,
      ...sumCounts(runs),
      errors: trace.turns.flatMap((turn) => turn.calls.filter((call) => call.isError)).length,
      durationsFromTrace: fromTrace,
      durationsFromModel: callIndex - fromTrace,
      unknownTools,
      shellCalls: shell.calls,
      shellReadOnly: shell.readOnly,
      skipped: trace.skipped,
    },
    strategies: totals(runs, strategies),
    models: models.map((model) => {
      const own = runs.filter((run) => run.model === model);
      return { model, ...sumCounts(own), strategies: totals(own, strategies) };
    }),
  };
}

const COUNTS = ['turns', 'calls', 'multiCallTurns', 'conflictingPairs'] as const;

function countsOf(nodes: readonly PlanNode[]): TraceCounts {
  const pairs = nodes.flatMap((a, i) => nodes.slice(i + 1).filter((b) => conflicts(a, b)));
  const [turns, calls, multiCallTurns] = [1, nodes.length, nodes.length >= 2 ? 1 : 0];
  return { turns, calls, multiCallTurns, conflictingPairs: pairs.length };
}

const sumCounts = (runs: readonly TurnRun[]): TraceCounts =>
  Object.fromEntries(
    COUNTS.map((name) => [name, runs.reduce((total, run) => total + run.counts[name], 0)]),
  ) as Record<(typeof COUNTS)[number], number>;

function totals(runs: readonly TurnRun[], strategies: readonly Strategy[]): TraceStrategyFigures[] {
  const sum = (pick: (run: TurnRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const figures = strategies.map((strategy, s) => ({
    strategy: strategy.name,
    makespanMs: sum((run) => run.batch[s]!.turnMs),
    afterStreamMs: sum((run) => run.stream[s]!.afterStreamMs),
    streamedMs: sum((run) => run.stream[s]!.turnMs),
    conflictingOverlaps: sum(
      (run) => run.batch[s]!.conflictingOverlaps + run.stream[s]!.conflictingOverlaps,
    ),
  }));
  const greedy = figures.find((figure) => figure.strategy === 'greedy');
  const ratio = (value: number, base: number | undefined) =>
    base === undefined || base === 0 ? null : value / base;
  return figures.map(({ conflictingOverlaps, ...figure }) => ({
    ...figure,
    versusGreedy: ratio(figure.makespanMs, greedy?.makespanMs),
    afterStreamVersusGreedy: ratio(figure.afterStreamMs, greedy?.afterStreamMs),
    conflictingOverlaps,
  }));
}
