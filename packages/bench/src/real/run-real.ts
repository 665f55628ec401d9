import { rm } from 'node:fs/promises';
import type { ToolCall, ToolRegistry } from '@toolwaves/core';
import { withLatency } from '@toolwaves/core/testing';
import { Dispatcher } from '@toolwaves/executor-rx';
import type { Planner } from '@toolwaves/planner';
import type { RealStreamFigures, WorkloadFigures } from '../report/bench-report.js';
import { spreadOf } from '../simulate/summarize-strategies.js';
import { arrivalTimes, healthEstimates, withEstimates } from '../simulate/turn-inputs.js';
import type { BenchWorkload } from '../workloads/workload.js';
import { createWorkspace, type WorkspaceLayout } from '../workloads/workspace-layout.js';

/** Options of {@link runRealStream}. */
interface RealStreamOptions {
  /** The tool workloads of the first seed (batches of `sizes` run) and their simulated figures. */
  readonly workloads: readonly BenchWorkload[];
  readonly figures: readonly WorkloadFigures[];
  readonly layout: WorkspaceLayout;
  readonly registryFor: (root: string) => ToolRegistry;
  readonly sizes: readonly number[];
  /** Runs per batch and way (the median counts). */
  readonly repeats: number;
  readonly maxConcurrency: number;
  /** The time the runs should take, about: sets the latency scale. */
  readonly budgetMs: number;
  readonly clock: () => number;
  readonly tokensPerSecond: number;
  /** The wait-then-waves planner. */
  readonly planner: Planner;
  readonly onRun?: (done: number, total: number, workload: string) => void;
}

const SCALES = [1, 0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05, 0.02, 0.01];

/** The largest round latency scale (1 to 0.01) at which `simulatedMs` fits `budgetMs`. */
export function chooseLatencyScale(options: { simulatedMs: number; budgetMs: number }): number {
  return SCALES.find((scale) => options.simulatedMs * scale <= options.budgetMs) ?? 0.01;
}

/**
 * Streamed turns for real: each batch written by a timed source (the token model's arrivals),
 * run `repeats` times each way (order rotating) on a fresh workspace, every call delayed by its
 * duration × the scale that fits the budget: wait-then-waves with `planner` (the plan made before
 * the clock starts) against `eager` (`dispatchStream`). Sums per workload and way the median
 * wall-clock, the simulated turn × scale and the spread.
 */
export async function runRealStream(
  options: RealStreamOptions,
): Promise<{ latencyScale: number; runs: RealStreamFigures[] }> {
  const { clock, maxConcurrency, repeats, planner, tokensPerSecond } = options;
  const ways = [planner.name, 'eager'];
  const runnable = options.workloads.map((workload) => {
    const estimates = healthEstimates({ workload });
    const figures = options.figures.find((entry) => entry.name === workload.name);
    const batches = workload.batches.flatMap((batch, position) =>
      batch.calls === undefined || !options.sizes.includes(batch.size)
        ? []
        : [{ batch, calls: batch.calls, position, estimates: estimates[position]! }],
    );
    const simulatedMs = (position: number, name: string): number =>
      figures?.perBatch[position]?.stream.find((result) => result.strategy === name)?.turnMs ?? 0;
    return { workload, batches, simulatedMs };
  });
  let total = 0;
  for (const { batches, simulatedMs } of runnable) {
    for (const { position } of batches) for (const way of ways) total += simulatedMs(position, way);
  }
  const runs = runnable.reduce((sum, { batches }) => sum + batches.length, 0);
  if (options.budgetMs <= 0 || runs === 0) return { latencyScale: 0, runs: [] };
  const scale = chooseLatencyScale({ simulatedMs: total * repeats, budgetMs: options.budgetMs });
  /** One run on a fresh workspace, each call delayed by its duration × the scale. */
  const once = async (entry: (typeof runnable)[number]['batches'][number], eager: boolean) => {
    const latency = new Map(entry.calls.map((call, i) => [call.id, entry.batch.durationsMs[i]!]));
    const root = await createWorkspace({ layout: options.layout });
    try {
      const registry = withLatency({
        registry: options.registryFor(root),
        latencyMs: (_tool, _input, context) => (latency.get(context.toolCallId) ?? 0) * scale,
      });
      const plan = planner.plan(withEstimates(entry.batch.nodes, entry.estimates), {
        maxConcurrency,
      });
      const dispatcher = new Dispatcher({
        registry,
        mode: eager ? 'eager' : 'parallel',
        planner: { name: planner.name, plan: () => plan },
        maxConcurrency,
      });
      const { argumentChars } = entry.batch;
      const arrivalMs = arrivalTimes({ argumentChars, tokensPerSecond }).map((ms) => ms * scale);
      const start = clock();
      const source = timedSource({ calls: entry.calls, arrivalMs, clock, start });
      const written: ToolCall[] = [];
      if (!eager) for await (const call of source) written.push(call);
      const results = await (eager
        ? // every call as soon as the rules allow, as the simulated `eager` it is compared with;
          // what holding writes for the message's end costs is the retried streams' figure
          dispatcher.dispatchStream(source, { whileStreaming: 'all' })
        : dispatcher.dispatch(written));
      return { wallMs: clock() - start, errors: results.filter((r) => r.isError).length };
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  };
  let done = 0;
  const rows: RealStreamFigures[] = [];
  for (const { workload, batches, simulatedMs } of runnable) {
    if (batches.length === 0) continue;
    const zero = { batches: 0, calls: 0, wallMs: 0, simulatedMs: 0, spread: 0, errors: 0 };
    const sums = ways.map((strategy) => ({ workload: workload.name, strategy, ...zero }));
    for (const entry of batches) {
      const walls = ways.map(() => [] as number[]);
      for (let round = 0; round < repeats; round++) {
        for (let turn = 0; turn < ways.length; turn++) {
          const w = (turn + entry.position + round) % ways.length;
          const { wallMs, errors } = await once(entry, w === 1);
          walls[w]!.push(wallMs);
          if (round === 0) sums[w]!.errors += errors;
          options.onRun?.(++done, runs * ways.length * repeats, workload.name);
        }
      }
      sums.forEach((sum, w) => {
        const { median, min, max } = spreadOf(walls[w]!);
        sum.wallMs += median;
        sum.spread += (median === 0 ? 0 : (max - min) / median) / batches.length;
        sum.calls += entry.calls.length;
        sum.batches += 1;
        sum.simulatedMs += simulatedMs(entry.position, sum.strategy) * scale;
      });
    }
    rows.push(...sums);
  }
  return { latencyScale: scale, runs: rows };
}

/** Calls in real time, the way a model writes them: each once its arrival has passed. */
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
