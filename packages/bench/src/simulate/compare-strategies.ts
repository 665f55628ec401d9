import { DEFAULT_ESTIMATE_MS, lowerBound } from '@toolwaves/planner';
import type {
  BatchFigures,
  OverallFigures,
  TurnMode,
  WorkloadFigures,
} from '../report/bench-report.js';
import type { Strategy } from '../strategies/strategy.js';
import type { BenchWorkload } from '../workloads/workload.js';
import { playTurn } from './simulate-turn.js';
import { estimateAccuracy, summarizeStrategies } from './summarize-strategies.js';
import {
  arrivalTimes,
  DEFAULT_TOKENS_PER_SECOND,
  healthEstimates,
  withEstimates,
} from './turn-inputs.js';

/**
 * Every strategy on every batch of every workload and seed, batch and streamed ({@link playTurn}),
 * summarized across seeds.
 */
export function compareStrategies(options: {
  /** The workloads of each seed, seeds in order. */
  readonly seeds: readonly (readonly BenchWorkload[])[];
  readonly strategies: readonly Strategy[];
  readonly maxConcurrency?: number;
  readonly tokensPerSecond?: number;
  readonly onBatch?: (done: number, total: number) => void;
}): { workloads: WorkloadFigures[]; overall: OverallFigures } {
  const { strategies } = options;
  const maxConcurrency = options.maxConcurrency ?? 8;
  const tokensPerSecond = options.tokensPerSecond ?? DEFAULT_TOKENS_PER_SECOND;
  const reference = strategies.some(({ name }) => name === 'greedy') ? 'greedy' : undefined;
  const total = options.seeds.flat().reduce((sum, workload) => sum + workload.batches.length, 0);
  let done = 0;
  const perWorkload = (options.seeds[0] ?? []).map((workload) => ({
    workload,
    batches: [] as BatchFigures[],
    estimates: [] as { estimateMs: number | undefined; durationMs: number }[],
  }));
  for (const workloads of options.seeds) {
    for (const entry of perWorkload) {
      const workload = workloads.find((candidate) => candidate.name === entry.workload.name)!;
      const estimates = healthEstimates({ workload });
      workload.batches.forEach((batch, position) => {
        const actual = withEstimates(batch.nodes, batch.durationsMs);
        batch.durationsMs.forEach((durationMs, call) => {
          entry.estimates.push({ estimateMs: estimates[position]![call], durationMs });
        });
        const arrivalMs = arrivalTimes({ argumentChars: batch.argumentChars, tokensPerSecond });
        const turn = playTurn({
          strategies,
          estimated: withEstimates(batch.nodes, estimates[position]!),
          actual,
          arrivalMs,
          maxConcurrency,
          where: `batch ${position} of workload \`${workload.name}\` (${batch.size} calls)`,
        });
        entry.batches.push({
          seed: workload.seed,
          size: batch.size,
          lowerBoundMs: lowerBound(actual, { maxConcurrency }),
          streamEndMs: arrivalMs[arrivalMs.length - 1] ?? 0,
          streamLowerBoundMs: lowerBound(actual, { maxConcurrency, arrivalMs }),
          ...turn,
        });
        options.onBatch?.(++done, total);
      });
    }
  }
  const seeds = options.seeds.map((workloads) => workloads[0]?.seed ?? 0);
  const summarize = (batches: readonly BatchFigures[]) => {
    const of = (mode: TurnMode) =>
      summarizeStrategies({
        batches,
        mode,
        strategies: strategies.map(({ name }) => name),
        seeds,
        ...(reference === undefined ? {} : { reference }),
      });
    return { batch: of('batch'), stream: of('stream') };
  };
  const accuracy = (pairs: { estimateMs: number | undefined; durationMs: number }[]) =>
    estimateAccuracy({ pairs, defaultMs: DEFAULT_ESTIMATE_MS });
  const workloads = perWorkload.map(({ workload, batches, estimates }): WorkloadFigures => {
    const firstSeed = batches.filter((batch) => batch.seed === seeds[0]);
    return {
      name: workload.name,
      description: workload.description,
      batches: firstSeed.length,
      calls: firstSeed.reduce((sum, batch) => sum + batch.size, 0),
      estimates: accuracy(estimates),
      ...summarize(batches),
      perBatch: batches,
    };
  });
  return {
    workloads,
    overall: {
      batches: workloads.reduce((sum, workload) => sum + workload.batches, 0),
      calls: workloads.reduce((sum, workload) => sum + workload.calls, 0),
      estimates: accuracy(perWorkload.flatMap((entry) => entry.estimates)),
      ...summarize(workloads.flatMap((workload) => workload.perBatch)),
    },
  };
}
