import { rm } from 'node:fs/promises';
import type { ToolCall, ToolRegistry, ToolResult } from '@toolwaves/core';
import { withLatency } from '@toolwaves/core/testing';
import { Dispatcher } from '@toolwaves/executor-rx';
import type { Planner } from '@toolwaves/planner';
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
  readonly tokensPerSecond?: number;
  readonly onRun?: (done: number, total: number, workload: string) => void;
}

/** A way to run a batch for real: a plan dispatched whole, wait-then-waves, or eager. */
interface Contender {
  readonly name: string;
  readonly planner: Planner;
  readonly how: 'batch' | 'waves' | 'eager';
}

const SCALES = [1, 0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05, 0.02, 0.01];

/** The largest round latency scale (1 to 0.01) at which `simulatedMs` fits `budgetMs`. */
export function chooseLatencyScale(options: { simulatedMs: number; budgetMs: number }): number {
  return SCALES.find((scale) => options.simulatedMs * scale <= options.budgetMs) ?? 0.01;
}

/** Whole batches for real, each planner's plan dispatched by a parallel `Dispatcher`. */
export async function runReal(
  options: RealOptions & { readonly planners: readonly Planner[] },
): Promise<{ latencyScale: number; runs: RealRunFigures[] }> {
  const contenders = options.planners.map((planner): Contender => {
    return { name: planner.name, planner, how: 'batch' };
  });
  const { latencyScale, rows } = await measure(options, 'batch', contenders);
  return { latencyScale, runs: rows.map(({ name, ...row }) => ({ planner: name, ...row })) };
}

/** Streamed turns for real: wait-then-waves with `planner` against `eager` (`dispatchStream`). */
export async function runRealStream(
  options: RealOptions & { readonly planner: Planner },
): Promise<{ latencyScale: number; runs: RealStreamFigures[] }> {
  const { planner } = options;
  const { latencyScale, rows } = await measure(options, 'stream', [
    { name: planner.name, planner, how: 'waves' },
    { name: 'eager', planner, how: 'eager' },
  ]);
  return {
    latencyScale,
    runs: rows.map(({ name, errorSamples: _, ...row }) => ({ strategy: name, ...row })),
  };
}

/**
 * Runs every batch `repeats` times per contender (order rotating), each on a fresh workspace,
 * calls delayed by duration × the scale that fits the budget, plans made before the clock starts;
 * sums per workload and contender the median wall-clock, the simulated turn × scale, the spread.
 */
async function measure(options: RealOptions, mode: TurnMode, contenders: readonly Contender[]) {
  const { clock, maxConcurrency, repeats } = options;
  const runnable = options.workloads.map((workload) => {
    const estimates = healthEstimates({ workload });
    const figures = options.figures.find((entry) => entry.name === workload.name);
    const batches = workload.batches.flatMap((batch, position) =>
      batch.calls === undefined || !options.sizes.includes(batch.size)
        ? []
        : [{ batch, calls: batch.calls, position, estimates: estimates[position]! }],
    );
    const simulatedMs = (position: number, name: string): number =>
      figures?.perBatch[position]?.[mode].find((result) => result.strategy === name)?.turnMs ?? 0;
    return { workload, batches, simulatedMs };
  });
  let total = 0;
  for (const { batches, simulatedMs } of runnable) {
    for (const { position } of batches)
      for (const { name } of contenders) total += simulatedMs(position, name);
  }
  const runs = runnable.reduce((sum, { batches }) => sum + batches.length, 0);
  if (options.budgetMs <= 0 || runs === 0) return { latencyScale: 0, rows: [] };
  const scale = chooseLatencyScale({ simulatedMs: total * repeats, budgetMs: options.budgetMs });
  type Entry = (typeof runnable)[number]['batches'][number];
  const once = (entry: Entry, { planner, how }: Contender) =>
    onDelayedWorkspace({ ...options, batch: entry.batch, scale }, async (registry) => {
      const plan = planner.plan(withEstimates(entry.batch.nodes, entry.estimates), {
        maxConcurrency,
      });
      const dispatcher = new Dispatcher({
        registry,
        mode: how === 'eager' ? 'eager' : 'parallel',
        planner: { name: planner.name, plan: () => plan },
        maxConcurrency,
      });
      const arrivalMs = arrivalTimes({
        argumentChars: entry.batch.argumentChars,
        ...(options.tokensPerSecond === undefined
          ? {}
          : { tokensPerSecond: options.tokensPerSecond }),
      }).map((ms) => ms * scale);
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
    });
  // Warm-up, untimed: the first batch of every workload, so every tool's code is compiled.
  if (mode === 'batch') {
    for (const { batches } of runnable) if (batches[0]) await once(batches[0], contenders[0]!);
  }
  let done = 0;
  const rows = [];
  for (const { workload, batches, simulatedMs } of runnable) {
    if (batches.length === 0) continue;
    const sums = contenders.map(({ name }) => ({
      workload: workload.name,
      name,
      batches: batches.length,
      calls: 0,
      wallMs: 0,
      simulatedMs: 0,
      spread: 0,
      errors: 0,
      errorSamples: [] as string[],
    }));
    for (const entry of batches) {
      const walls = contenders.map(() => [] as number[]);
      for (let round = 0; round < repeats; round++) {
        for (let turn = 0; turn < contenders.length; turn++) {
          const c = (turn + entry.position + round) % contenders.length;
          const { wallMs, results } = await once(entry, contenders[c]!);
          walls[c]!.push(wallMs);
          for (const result of round === 0 ? results : []) {
            if (!result.isError) continue;
            sums[c]!.errors++;
            if (sums[c]!.errorSamples.length < 3)
              sums[c]!.errorSamples.push(`${result.toolName}: ${result.content.slice(0, 200)}`);
          }
          options.onRun?.(++done, runs * contenders.length * repeats, workload.name);
        }
      }
      sums.forEach((sum, c) => {
        const { median, min, max } = spreadOf(walls[c]!);
        sum.wallMs += median;
        sum.spread += (median === 0 ? 0 : (max - min) / median) / batches.length;
        sum.calls += entry.calls.length;
        sum.simulatedMs += simulatedMs(entry.position, sum.name) * scale;
      });
    }
    rows.push(...sums);
  }
  return { latencyScale: scale, rows };
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

/** Runs `run` on a fresh workspace, each call delayed by its duration × `scale`. */
async function onDelayedWorkspace<T>(
  options: Pick<RealOptions, 'layout' | 'registryFor'> & { batch: BenchBatch; scale: number },
  run: (registry: ToolRegistry) => Promise<T>,
): Promise<T> {
  const { batch, scale } = options;
  const latency = new Map(
    (batch.calls ?? []).map((call, index) => [call.id, (batch.durationsMs[index] ?? 0) * scale]),
  );
  const root = await createWorkspace({ layout: options.layout });
  try {
    const registry = withLatency({
      registry: options.registryFor(root),
      latencyMs: (_tool, _input, context) => latency.get(context.toolCallId) ?? 0,
    });
    return await run(registry);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
