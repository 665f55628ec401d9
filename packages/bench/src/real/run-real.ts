import { rm } from 'node:fs/promises';
import type { ToolCall, ToolRegistry, ToolResult } from '@toolwaves/core';
import { withLatency } from '@toolwaves/core/testing';
import { Dispatcher } from '@toolwaves/executor-rx';
import type { PlanNode, Planner } from '@toolwaves/planner';
import type {
  RealRunFigures,
  RealStreamFigures,
  TurnMode,
  WorkloadFigures,
} from '../report/bench-report.js';
import { spreadOf } from '../simulate/summarize-strategies.js';
import { arrivalTimes, healthEstimates, withEstimates } from '../simulate/turn-inputs.js';
import type { BenchBatch, BenchWorkload } from '../workloads/workload.js';
import { createWorkspace, type WorkspaceLayout } from '../workloads/workspace-layout.js';

/**
 * What the real runs share: the tool workloads of the first seed (batches of `sizes` run),
 * their simulated figures, `repeats` per batch (the median counts), and the time they should
 * take about (`budgetMs`, which sets the latency scale).
 */
interface RealOptions {
  readonly workloads: readonly BenchWorkload[];
  readonly figures: readonly WorkloadFigures[];
  readonly layout: WorkspaceLayout;
  readonly registryFor: (root: string) => ToolRegistry;
  readonly sizes: readonly number[];
  readonly repeats: number;
  readonly maxConcurrency: number;
  readonly budgetMs: number;
  readonly clock: () => number;
  readonly onRun?: (done: number, total: number, workload: string) => void;
}

/** One batch run for real, planned on the health record's estimates. */
type RealBatch = {
  batch: BenchBatch;
  calls: readonly ToolCall[];
  position: number;
  nodes: PlanNode[];
};
type Contender = ReturnType<typeof contender>;

const SCALES = [1, 0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05, 0.02, 0.01];

/**
 * The largest round latency scale (1 down to 0.01) at which runs whose simulated durations
 * add up to `simulatedMs` fit in `budgetMs`: the bench injects `duration × scale`.
 */
export function chooseLatencyScale(options: { simulatedMs: number; budgetMs: number }): number {
  return SCALES.find((scale) => options.simulatedMs * scale <= options.budgetMs) ?? 0.01;
}

/**
 * A planner's way of running a batch for real over the delayed tools: `batch` dispatches the
 * whole batch; streamed, a source yields each call at its arrival time (token model × the
 * scale) and `waves` reads the whole stream then dispatches the plan, while `eager` feeds it to
 * `dispatchStream`. The plan (on the estimates) is made before the clock starts; the clock
 * runs from the first tool-call token to the last result.
 */
function contender(
  options: RealOptions & { readonly tokensPerSecond?: number },
  planner: Planner,
  how: 'batch' | 'waves' | 'eager',
) {
  const { clock, maxConcurrency } = options;
  return {
    name: how === 'eager' ? 'eager' : planner.name,
    run: async (entry: RealBatch, registry: ToolRegistry, scale: number) => {
      const plan = planner.plan(entry.nodes, { maxConcurrency });
      const arrivalMs = arrivalTimes({
        argumentChars: entry.batch.argumentChars,
        ...(options.tokensPerSecond === undefined
          ? {}
          : { tokensPerSecond: options.tokensPerSecond }),
      }).map((ms) => ms * scale);
      const dispatcher = new Dispatcher({
        registry,
        mode: how === 'eager' ? 'eager' : 'parallel',
        planner: { name: planner.name, plan: () => plan },
        maxConcurrency,
      });
      const start = clock();
      const source = timedSource({ calls: entry.calls, arrivalMs, clock, start });
      let results: ToolResult[];
      if (how === 'batch') results = await dispatcher.dispatch(entry.calls);
      else if (how === 'eager') results = await dispatcher.dispatchStream(source);
      else {
        const written: ToolCall[] = [];
        for await (const call of source) written.push(call);
        results = await dispatcher.dispatch(written);
      }
      return { wallMs: clock() - start, results };
    },
  };
}

/** Whole batches for real, each planner's plan dispatched by a parallel `Dispatcher`. */
export function runReal(
  options: RealOptions & { readonly planners: readonly Planner[] },
): Promise<{ latencyScale: number; runs: RealRunFigures[] }> {
  const contenders = options.planners.map((planner) => contender(options, planner, 'batch'));
  return measure(options, 'batch', contenders, true);
}

/** Streamed turns for real: wait-then-waves with `planner` against `eager` (`dispatchStream`). */
export async function runRealStream(
  options: RealOptions & { readonly planner: Planner; readonly tokensPerSecond: number },
): Promise<{ latencyScale: number; runs: RealStreamFigures[] }> {
  const contenders = [
    contender(options, options.planner, 'waves'),
    contender(options, options.planner, 'eager'),
  ];
  const { latencyScale, runs } = await measure(options, 'stream', contenders, false);
  return {
    latencyScale,
    runs: runs.map((run) => ({
      workload: run.workload,
      strategy: run.planner,
      batches: run.batches,
      wallMs: run.wallMs,
      simulatedMs: run.simulatedMs,
      calls: run.calls,
      errors: run.errors,
      spread: run.spread,
    })),
  };
}

/**
 * Runs every batch `repeats` times per contender (order rotating from batch to batch and round
 * to round) on a fresh workspace, each call delayed by its sampled duration × the latency scale
 * that fits the budget; an untimed run of each workload's first batch warms the code up when
 * asked. Sums per workload and contender the median wall-clock, the simulated turn × the scale
 * and the spread ((slowest − fastest) ÷ median, averaged over batches); error results are
 * counted in the first round.
 */
async function measure(
  options: RealOptions,
  mode: TurnMode,
  contenders: readonly Contender[],
  warmUp: boolean,
): Promise<{ latencyScale: number; runs: RealRunFigures[] }> {
  const runnable = options.workloads.flatMap((workload) => {
    const estimates = healthEstimates({ workload });
    const batches = workload.batches.flatMap((batch, position): RealBatch[] =>
      batch.calls === undefined || !options.sizes.includes(batch.size)
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
    const simulated = options.figures.find((figures) => figures.name === workload.name);
    const simulatedMs = (entry: RealBatch, name: string): number =>
      simulated?.perBatch[entry.position]?.[mode].find((result) => result.strategy === name)
        ?.turnMs ?? 0;
    return batches.length === 0 ? [] : [{ workload, batches, simulatedMs }];
  });
  let total = 0;
  for (const { batches, simulatedMs } of runnable) {
    for (const entry of batches) {
      for (const { name } of contenders) total += simulatedMs(entry, name) * options.repeats;
    }
  }
  if (options.budgetMs <= 0) return { latencyScale: 0, runs: [] };
  const scale = chooseLatencyScale({ simulatedMs: total, budgetMs: options.budgetMs });
  const once = (entry: RealBatch, contender: Contender) =>
    onDelayedWorkspace({
      batch: entry.batch,
      layout: options.layout,
      registryFor: options.registryFor,
      latencyScale: scale,
      run: (registry) => contender.run(entry, registry, scale),
    });
  // Warm-up, untimed: the first batch of every workload, so every tool's code is compiled.
  if (warmUp && contenders[0] !== undefined) {
    for (const { batches } of runnable) await once(batches[0]!, contenders[0]);
  }
  const runs =
    runnable.reduce((sum, entry) => sum + entry.batches.length, 0) *
    contenders.length *
    options.repeats;
  let done = 0;
  const rows: RealRunFigures[] = [];
  for (const { workload, batches, simulatedMs } of runnable) {
    const totals = contenders.map(() => ({
      wallMs: 0,
      simulatedMs: 0,
      calls: 0,
      spreadSum: 0,
      errors: 0,
      errorSamples: [] as string[],
    }));
    for (const entry of batches) {
      const walls = contenders.map(() => [] as number[]);
      for (let round = 0; round < options.repeats; round++) {
        for (let turn = 0; turn < contenders.length; turn++) {
          const c = (turn + entry.position + round) % contenders.length;
          const { wallMs, results } = await once(entry, contenders[c]!);
          walls[c]!.push(wallMs);
          for (const result of round === 0 ? results : []) {
            if (!result.isError) continue;
            totals[c]!.errors++;
            if (totals[c]!.errorSamples.length < 3) {
              totals[c]!.errorSamples.push(`${result.toolName}: ${result.content.slice(0, 200)}`);
            }
          }
          options.onRun?.(++done, runs, workload.name);
        }
      }
      contenders.forEach((contender, c) => {
        const { median, min, max } = spreadOf(walls[c]!);
        const sum = totals[c]!;
        sum.wallMs += median;
        sum.spreadSum += median === 0 ? 0 : (max - min) / median;
        sum.calls += entry.calls.length;
        sum.simulatedMs += simulatedMs(entry, contender.name) * scale;
      });
    }
    contenders.forEach((contender, c) => {
      const { spreadSum, ...sum } = totals[c]!;
      rows.push({
        workload: workload.name,
        planner: contender.name,
        batches: batches.length,
        ...sum,
        spread: spreadSum / batches.length,
      });
    });
  }
  return { latencyScale: rows.length === 0 ? 0 : scale, runs: rows };
}

/**
 * A stream of calls in real time, the way a model writes them: yields each call once its
 * arrival time (ms after `start` on `clock`) has passed, waiting with `setTimeout`.
 */
export async function* timedSource(options: {
  readonly calls: readonly ToolCall[];
  readonly arrivalMs: readonly number[];
  readonly clock: () => number;
  readonly start: number;
}): AsyncGenerator<ToolCall> {
  for (let call = 0; call < options.calls.length; call++) {
    const due = options.start + options.arrivalMs[call]!;
    // Timers run in whole milliseconds: wait again until the clock has really reached it.
    for (let wait = due - options.clock(); wait > 0; wait = due - options.clock()) {
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
    }
    yield options.calls[call]!;
  }
}

/**
 * Runs `run` with the real tools over a fresh workspace, every call of the batch delayed by
 * its sampled duration × `latencyScale` (`withLatency`, matched by call id); the workspace is
 * removed afterwards, whether `run` succeeded or not.
 */
export async function onDelayedWorkspace<T>(options: {
  readonly batch: BenchBatch;
  readonly layout: WorkspaceLayout;
  readonly registryFor: (root: string) => ToolRegistry;
  readonly latencyScale: number;
  readonly run: (registry: ToolRegistry) => Promise<T>;
}): Promise<T> {
  const { batch, latencyScale } = options;
  const latency = new Map(
    (batch.calls ?? []).map((call, index) => [
      call.id,
      (batch.durationsMs[index] ?? 0) * latencyScale,
    ]),
  );
  const root = await createWorkspace({ layout: options.layout });
  try {
    const registry = withLatency({
      registry: options.registryFor(root),
      latencyMs: (_tool, _input, context) => latency.get(context.toolCallId) ?? 0,
    });
    return await options.run(registry);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
