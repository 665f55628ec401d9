import type { ToolCall, ToolRegistry, ToolResult } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import type { Planner } from '@toolwaves/planner';
import type { RealStreamFigures, WorkloadFigures } from '../report/bench-report.js';
import { arrivalTimes } from '../simulate/arrival-times.js';
import { healthEstimates } from '../simulate/health-estimates.js';
import { spreadOf } from '../simulate/spread-of.js';
import { withEstimates } from '../simulate/with-estimates.js';
import type { BenchBatch, BenchWorkload } from '../workloads/bench-batch.js';
import type { WorkspaceLayout } from '../workloads/workspace-layout.js';
import { onDelayedWorkspace } from './on-delayed-workspace.js';
import { timedSource } from './timed-source.js';

/** Options of {@link runRealStream}. */
export interface RunRealStreamOptions {
  /** The workloads of one seed; only batches with calls (tool workloads) are run. */
  readonly workloads: readonly BenchWorkload[];
  /** Their simulated figures (`compareStrategies`, that seed first), for the simulated turns. */
  readonly figures: readonly WorkloadFigures[];
  /** The planner of the wait-then-waves run (greedy). */
  readonly planner: Planner;
  readonly layout: WorkspaceLayout;
  readonly registryFor: (root: string) => ToolRegistry;
  /** Injected latency and arrival times = simulated ones × this. */
  readonly latencyScale: number;
  /** Only batches of these sizes are run. */
  readonly sizes: readonly number[];
  /** Runs per batch and strategy; the median counts. */
  readonly repeats: number;
  readonly maxConcurrency: number;
  /** Tokens per second of the token model (before scaling). */
  readonly tokensPerSecond: number;
  /** A monotonic clock in ms. */
  readonly clock: () => number;
  /** Told after each run: runs done, in all, and the workload. */
  readonly onRun?: (done: number, total: number, workload: string) => void;
}

/**
 * Streamed turns for real: each batch's calls are handed to the executor by a source that
 * yields each call at its arrival time (token model × `latencyScale`), in real time, with the
 * real filesystem tools delayed by the sampled durations × `latencyScale`. Two ways to run the
 * stream, side by side, order rotating: `eager` — `dispatcher.dispatchStream(source)`, each
 * call starting as soon as it may; and wait-then-waves — read the whole stream, then
 * `dispatch` the planner's plan (made on the health record's estimates). The wall-clock runs
 * from the first call's first token to the last result; the median of `repeats` counts, and
 * the spread says how much the repeats disagreed.
 *
 * @throws DispatchError when a dispatch fails as a whole (a hard error: a bug, not a figure).
 * @example
 * await runRealStream({ workloads, figures, planner: greedyPlanner(), layout, registryFor, latencyScale: 0.05, sizes: [32], repeats: 3, maxConcurrency: 8, tokensPerSecond: 80, clock: () => performance.now() });
 */
export async function runRealStream(options: RunRealStreamOptions): Promise<RealStreamFigures[]> {
  const strategies = [options.planner.name, 'eager'] as const;
  const runnable = options.workloads.flatMap((workload) => {
    const estimates = healthEstimates({ workload });
    const batches = workload.batches.flatMap((batch, position) =>
      batch.calls === undefined || !options.sizes.includes(batch.size)
        ? []
        : [{ batch, calls: batch.calls, position, estimates: estimates[position]! }],
    );
    return batches.length === 0 ? [] : [{ workload, batches }];
  });
  const total =
    runnable.reduce((sum, entry) => sum + entry.batches.length, 0) *
    strategies.length *
    options.repeats;
  let done = 0;
  const figures: RealStreamFigures[] = [];
  for (const { workload, batches } of runnable) {
    const simulated = options.figures.find((candidate) => candidate.name === workload.name);
    const totals = new Map(
      strategies.map((name) => [
        name,
        { wallMs: 0, simulatedMs: 0, calls: 0, spreadSum: 0, errors: 0 },
      ]),
    );
    for (const entry of batches) {
      const walls = new Map(strategies.map((name) => [name, [] as number[]]));
      for (let round = 0; round < options.repeats; round++) {
        for (let turn = 0; turn < strategies.length; turn++) {
          const name = strategies[(turn + round + entry.position) % strategies.length]!;
          const { wallMs, results } = await runOnce(options, entry, name === 'eager');
          walls.get(name)!.push(wallMs);
          if (round === 0) {
            totals.get(name)!.errors += results.filter((result) => result.isError).length;
          }
          options.onRun?.(++done, total, workload.name);
        }
      }
      for (const name of strategies) {
        const sum = totals.get(name)!;
        const own = walls.get(name)!;
        const { median, min, max } = spreadOf(own);
        sum.wallMs += median;
        sum.spreadSum += median === 0 ? 0 : (max - min) / median;
        sum.calls += entry.calls.length;
        const turnMs =
          simulated?.perBatch[entry.position]?.stream.find((result) => result.strategy === name)
            ?.turnMs ?? 0;
        sum.simulatedMs += turnMs * options.latencyScale;
      }
    }
    for (const name of strategies) {
      const { spreadSum, ...sum } = totals.get(name)!;
      figures.push({
        workload: workload.name,
        strategy: name,
        batches: batches.length,
        ...sum,
        spread: spreadSum / batches.length,
      });
    }
  }
  return figures;
}

async function runOnce(
  options: RunRealStreamOptions,
  entry: {
    batch: BenchBatch;
    calls: readonly ToolCall[];
    estimates: readonly (number | undefined)[];
  },
  eager: boolean,
): Promise<{ wallMs: number; results: ToolResult[] }> {
  const { batch, calls } = entry;
  const scale = options.latencyScale;
  const arrivalMs = arrivalTimes({
    argumentChars: batch.argumentChars,
    tokensPerSecond: options.tokensPerSecond,
  }).map((ms) => ms * scale);
  const nodes = withEstimates(batch.nodes, entry.estimates);
  const plan = options.planner.plan(nodes, { maxConcurrency: options.maxConcurrency });
  return onDelayedWorkspace({
    batch,
    layout: options.layout,
    registryFor: options.registryFor,
    latencyScale: scale,
    run: async (registry) => {
      const dispatcher = new Dispatcher({
        registry,
        mode: eager ? 'eager' : 'parallel',
        planner: { name: options.planner.name, plan: () => plan },
        maxConcurrency: options.maxConcurrency,
      });
      const start = options.clock();
      const source = timedSource({ calls, arrivalMs, clock: options.clock, start });
      let results: ToolResult[];
      if (eager) {
        results = await dispatcher.dispatchStream(source);
      } else {
        const written: ToolCall[] = [];
        for await (const call of source) written.push(call);
        results = await dispatcher.dispatch(written);
      }
      return { wallMs: options.clock() - start, results };
    },
  });
}
