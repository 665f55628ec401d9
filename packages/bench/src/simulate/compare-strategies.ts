import { DEFAULT_ESTIMATE_MS, lowerBound } from '@toolwaves/planner';
import { BenchError } from '../bench-error.js';
import type {
  BatchFigures,
  MeanPlanningTime,
  OverallFigures,
  TurnResult,
  WorkloadFigures,
} from '../report/bench-report.js';
import type { Execution, Strategy, TurnView } from '../strategies/strategy.js';
import type { BenchWorkload } from '../workloads/workload.js';
import { arrivalTimes } from './arrival-times.js';
import { estimateAccuracy } from './estimate-accuracy.js';
import { healthEstimates } from './health-estimates.js';
import { minimalWaveCount } from './minimal-wave-count.js';
import { simulateTurn } from './simulate-turn.js';
import { summarizeStrategies } from './summarize-strategies.js';
import { withEstimates } from './with-estimates.js';

/** Options of {@link compareStrategies}. */
export interface CompareStrategiesOptions {
  /** The workloads of each seed (`generateBatches` once per seed), seeds in order. */
  readonly seeds: readonly (readonly BenchWorkload[])[];
  readonly strategies: readonly Strategy[];
  /** The cap of capped strategies (default 8). */
  readonly maxConcurrency?: number;
  /** Streamed turns: tokens per second of the token model (default 80). */
  readonly tokensPerSecond?: number;
  /** The strategy the others are compared with (default `greedy`, when present). */
  readonly reference?: string;
  /** A monotonic clock in ms for planning times (default: none are taken). */
  readonly clock?: () => number;
  /** Told after each batch: batches done, batches in all. */
  readonly onBatch?: (done: number, total: number) => void;
}

/** What {@link compareStrategies} found. */
export interface StrategyComparison {
  readonly workloads: WorkloadFigures[];
  readonly overall: OverallFigures;
  /** Mean planning time per batch (first seed, batch mode); empty without a clock. */
  readonly planning: MeanPlanningTime[];
}

/**
 * Runs every strategy on every batch of every workload and seed, as a whole batch and as a
 * streamed turn, and takes the figures. Strategies see the calls' declarations with the health
 * record's estimates ({@link healthEstimates}: what earlier turns showed), and in streamed
 * turns the arrival times of the token model ({@link arrivalTimes}); only a strategy marked
 * `clairvoyant` sees the sampled durations. The simulator alone puts their decisions and the
 * sampled durations together ({@link simulateTurn}).
 *
 * @throws {BenchError} `strategy_failed` naming the strategy and the batch when one throws.
 * @example
 * compareStrategies({ seeds: [workloads], strategies: defaultStrategies() });
 * @see summarizeStrategies
 */
export function compareStrategies(options: CompareStrategiesOptions): StrategyComparison {
  const { strategies } = options;
  const maxConcurrency = options.maxConcurrency ?? 8;
  const reference =
    options.reference ??
    (strategies.some((strategy) => strategy.name === 'greedy') ? 'greedy' : undefined);
  const total = options.seeds.reduce(
    (sum, workloads) =>
      sum + workloads.reduce((inner, workload) => inner + workload.batches.length, 0),
    0,
  );
  const planningMs = new Map(strategies.map((strategy) => [strategy.name, [] as number[]]));
  let done = 0;
  const workloadNames = options.seeds[0]?.map((workload) => workload.name) ?? [];
  const perWorkload = workloadNames.map((name) => ({
    workload: options.seeds[0]!.find((candidate) => candidate.name === name)!,
    batches: [] as BatchFigures[],
    estimates: [] as { estimateMs: number | undefined; durationMs: number }[],
  }));
  options.seeds.forEach((workloads, seedIndex) => {
    for (const entry of perWorkload) {
      const workload = workloads.find((candidate) => candidate.name === entry.workload.name);
      if (workload === undefined) {
        throw new BenchError({
          code: 'invalid_options',
          message: `Expected every seed to hold workload \`${entry.workload.name}\``,
        });
      }
      const estimates = healthEstimates({ workload });
      workload.batches.forEach((batch, position) => {
        const estimated = withEstimates(batch.nodes, estimates[position]!);
        const actual = withEstimates(batch.nodes, batch.durationsMs);
        batch.durationsMs.forEach((durationMs, call) => {
          entry.estimates.push({ estimateMs: estimates[position]![call], durationMs });
        });
        const arrivalMs = arrivalTimes({
          argumentChars: batch.argumentChars,
          ...(options.tokensPerSecond === undefined
            ? {}
            : { tokensPerSecond: options.tokensPerSecond }),
        });
        const streamEndMs = arrivalMs[arrivalMs.length - 1] ?? 0;
        const run = (mode: 'batch' | 'stream'): TurnResult[] =>
          strategies.map((strategy) => {
            const view: TurnView = {
              nodes: strategy.clairvoyant === true ? actual : estimated,
              maxConcurrency,
              ...(mode === 'stream' ? { arrivalMs } : {}),
            };
            const start = options.clock?.();
            const execution = decide(strategy, view, workload.name, position, batch.size);
            if (start !== undefined && mode === 'batch' && seedIndex === 0) {
              planningMs.get(strategy.name)!.push(options.clock!() - start);
            }
            return simulateTurn({
              strategy: strategy.name,
              execution,
              actual,
              ...(mode === 'stream' ? { arrivalMs } : {}),
            }).result;
          });
        entry.batches.push({
          seed: workload.seed,
          size: batch.size,
          lowerBoundMs: lowerBound(actual, { maxConcurrency }),
          streamEndMs,
          streamLowerBoundMs: lowerBound(actual, { maxConcurrency, arrivalMs }),
          minimalWaves: workload.kind === 'seed-model' ? minimalWaveCount(batch.nodes) : null,
          batch: run('batch'),
          stream: run('stream'),
        });
        options.onBatch?.(++done, total);
      });
    }
  });
  const seeds = options.seeds.map((workloads) => workloads[0]?.seed ?? 0);
  const strategyNames = strategies.map((strategy) => strategy.name);
  const summarize = (batches: readonly BatchFigures[], seedModel: boolean) => ({
    batch: summarizeStrategies({
      batches,
      mode: 'batch',
      strategies: strategyNames,
      seeds,
      seedModel,
      ...(reference === undefined ? {} : { reference }),
    }),
    stream: summarizeStrategies({
      batches,
      mode: 'stream',
      strategies: strategyNames,
      seeds,
      seedModel,
      ...(reference === undefined ? {} : { reference }),
    }),
  });
  const accuracy = (pairs: { estimateMs: number | undefined; durationMs: number }[]) =>
    estimateAccuracy({ pairs, defaultMs: DEFAULT_ESTIMATE_MS });
  const workloads = perWorkload.map(({ workload, batches, estimates }): WorkloadFigures => {
    const firstSeed = batches.filter((batch) => batch.seed === seeds[0]);
    return {
      name: workload.name,
      description: workload.description,
      kind: workload.kind,
      batches: firstSeed.length,
      calls: firstSeed.reduce((sum, batch) => sum + batch.size, 0),
      estimates: accuracy(estimates),
      ...summarize(batches, workload.kind === 'seed-model'),
      perBatch: batches,
    };
  });
  const allBatches = perWorkload.flatMap((entry) => entry.batches);
  return {
    workloads,
    overall: {
      batches: workloads.reduce((sum, workload) => sum + workload.batches, 0),
      calls: workloads.reduce((sum, workload) => sum + workload.calls, 0),
      estimates: accuracy(perWorkload.flatMap((entry) => entry.estimates)),
      ...summarize(allBatches, false),
    },
    planning:
      options.clock === undefined
        ? []
        : strategies.map((strategy) => {
            const times = planningMs.get(strategy.name)!;
            return {
              strategy: strategy.name,
              meanMs:
                times.length === 0 ? 0 : times.reduce((sum, ms) => sum + ms, 0) / times.length,
            };
          }),
  };
}

function decide(
  strategy: Strategy,
  view: TurnView,
  workload: string,
  position: number,
  size: number,
): Execution {
  try {
    return strategy.execute(view);
  } catch (error) {
    throw new BenchError({
      code: 'strategy_failed',
      message: `Strategy \`${strategy.name}\` failed on batch ${position} of workload \`${workload}\` (${size} calls): ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
}
