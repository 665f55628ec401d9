import type { ToolCall, ToolRegistry, ToolResult } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import type { PlanNode, Planner } from '@toolwaves/planner';
import type { RealRunFigures, WorkloadFigures } from '../report/bench-report.js';
import { healthEstimates } from '../simulate/health-estimates.js';
import { spreadOf } from '../simulate/spread-of.js';
import { withEstimates } from '../simulate/with-estimates.js';
import type { BenchBatch, BenchWorkload } from '../workloads/bench-batch.js';
import type { WorkspaceLayout } from '../workloads/workspace-layout.js';
import { onDelayedWorkspace } from './on-delayed-workspace.js';

/** Options of {@link runReal}. */
export interface RunRealOptions {
  /** The workloads of one seed; only batches with calls (tool workloads) are run. */
  readonly workloads: readonly BenchWorkload[];
  /** Their simulated figures (`compareStrategies`, that seed first), for the simulated makespans. */
  readonly figures: readonly WorkloadFigures[];
  readonly planners: readonly Planner[];
  /** The workspace each run gets a fresh copy of. */
  readonly layout: WorkspaceLayout;
  /** The real tools on a workspace root (e.g. {@link benchRegistry}). */
  readonly registryFor: (root: string) => ToolRegistry;
  /** Injected latency = sampled duration × this. */
  readonly latencyScale: number;
  /** Only batches of these sizes are run (default: all). */
  readonly sizes?: readonly number[];
  /** Dispatches per batch and planner; the median wall-clock counts (default 1). */
  readonly repeats?: number;
  readonly maxConcurrency?: number;
  /** A monotonic clock in ms, for the wall-clock. */
  readonly clock: () => number;
  /** Told after each dispatch: dispatches done, in all, and the workload. */
  readonly onRun?: (done: number, total: number, workload: string) => void;
}

/**
 * Executes the batches for real: each batch is dispatched `repeats` times with each planner
 * (the order rotating from batch to batch and round to round) by a parallel `Dispatcher` over
 * the real tools on a fresh workspace, every call delayed by its sampled duration ×
 * `latencyScale` ({@link withLatency}). The plan is made before the clock starts, on the
 * health record's estimates (as in the simulation), and handed to the dispatcher, so the
 * wall-clock is the execution of the plan — planning time is measured apart, unscaled. An untimed dispatch of each workload's first batch warms the code up
 * first. The median of a batch's repeats counts (a stray pause of the machine does not);
 * workspaces are created before the clock starts and removed after it stops. Error results are
 * counted in the first round.
 *
 * @throws DispatchError when a dispatch fails as a whole (a hard error: a bug, not a figure).
 * @example
 * await runReal({ workloads, figures, planners, layout, registryFor: (root) => benchRegistry({ root }), latencyScale: 0.1, clock: () => performance.now() });
 */
export async function runReal(options: RunRealOptions): Promise<RealRunFigures[]> {
  const { planners } = options;
  const runnable = options.workloads
    .map((workload) => ({
      workload,
      batches: (() => {
        const estimates = healthEstimates({ workload });
        return workload.batches.flatMap((batch, position) =>
          batch.calls === undefined ||
          (options.sizes !== undefined && !options.sizes.includes(batch.size))
            ? []
            : [
                {
                  batch,
                  calls: batch.calls,
                  position,
                  nodes: withEstimates(batch.nodes, estimates[position]!),
                },
              ],
        );
      })(),
    }))
    .filter((entry) => entry.batches.length > 0);
  // Warm-up, untimed: the first batch of every workload, so every tool's code is compiled.
  const firstPlanner = planners[0];
  for (const { batches } of runnable) {
    const first = batches[0];
    if (first !== undefined && firstPlanner !== undefined) {
      await dispatchOnce(options, first, firstPlanner);
    }
  }
  const repeats = options.repeats ?? 1;
  const total =
    runnable.reduce((sum, entry) => sum + entry.batches.length, 0) * planners.length * repeats;
  let done = 0;
  const figures: RealRunFigures[] = [];
  for (const { workload, batches } of runnable) {
    const simulated = options.figures.find((candidate) => candidate.name === workload.name);
    const totals = new Map(
      planners.map((planner) => [
        planner.name,
        {
          wallMs: 0,
          simulatedMs: 0,
          calls: 0,
          spreadSum: 0,
          errors: 0,
          errorSamples: [] as string[],
        },
      ]),
    );
    for (const entry of batches) {
      const { calls, position } = entry;
      const walls = new Map(planners.map((planner) => [planner.name, [] as number[]]));
      for (let round = 0; round < repeats; round++) {
        for (let turn = 0; turn < planners.length; turn++) {
          const planner = planners[(turn + position + round) % planners.length]!;
          const { wallMs, results } = await dispatchOnce(options, entry, planner);
          walls.get(planner.name)!.push(wallMs);
          if (round === 0) {
            const total = totals.get(planner.name)!;
            for (const result of results) {
              if (!result.isError) continue;
              total.errors++;
              if (total.errorSamples.length < 3) {
                total.errorSamples.push(`${result.toolName}: ${result.content.slice(0, 200)}`);
              }
            }
          }
          options.onRun?.(++done, total, workload.name);
        }
      }
      for (const planner of planners) {
        const total = totals.get(planner.name)!;
        const own = walls.get(planner.name)!;
        const { median, min, max } = spreadOf(own);
        total.wallMs += median;
        total.spreadSum += median === 0 ? 0 : (max - min) / median;
        total.calls += calls.length;
        const makespanMs =
          simulated?.perBatch[position]?.batch.find((result) => result.strategy === planner.name)
            ?.turnMs ?? 0;
        total.simulatedMs += makespanMs * options.latencyScale;
      }
    }
    for (const planner of planners) {
      const { spreadSum, ...entry } = totals.get(planner.name)!;
      figures.push({
        workload: workload.name,
        planner: planner.name,
        batches: batches.length,
        ...entry,
        spread: spreadSum / batches.length,
      });
    }
  }
  return figures;
}

/** One dispatch of a batch on a fresh workspace; only the dispatch is timed. */
async function dispatchOnce(
  options: RunRealOptions,
  entry: { batch: BenchBatch; calls: readonly ToolCall[]; nodes: readonly PlanNode[] },
  planner: Planner,
): Promise<{ wallMs: number; results: ToolResult[] }> {
  const plan = planner.plan(
    entry.nodes,
    options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency },
  );
  return onDelayedWorkspace({
    batch: entry.batch,
    layout: options.layout,
    registryFor: options.registryFor,
    latencyScale: options.latencyScale,
    run: async (registry) => {
      const dispatcher = new Dispatcher({
        registry,
        mode: 'parallel',
        planner: { name: planner.name, plan: () => plan },
        ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
      });
      const start = options.clock();
      const results = await dispatcher.dispatch(entry.calls);
      return { wallMs: options.clock() - start, results };
    },
  });
}
