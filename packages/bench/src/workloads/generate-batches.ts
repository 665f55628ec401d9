import type { ToolRegistry } from '@toolwaves/core';
import { checkOption, optionRules } from '@toolwaves/core/internal';
import { BenchError } from '../bench-error.js';
import { SeededRandom, seedFor } from './seeded-random.js';
import {
  barrierHeavyWorkload,
  exploreWorkload,
  hotFileWorkload,
  mixedTurnWorkload,
  refactorWorkload,
  remoteToolsWorkload,
} from './tool-workloads.js';
import type { BenchBatch, BenchWorkload, Workload } from './workload.js';
import type { WorkspaceLayout } from './workspace-layout.js';

/** Every built-in workload, in report order. */
export function defaultWorkloads(): Workload[] {
  return [
    exploreWorkload(),
    refactorWorkload(),
    mixedTurnWorkload(),
    hotFileWorkload(),
    barrierHeavyWorkload(),
    remoteToolsWorkload(),
  ];
}

/** Every workload's batches for one seed, each from its own seeded stream. */
export function generateBatches(options: {
  readonly workloads: readonly Workload[];
  readonly registry: ToolRegistry;
  readonly layout: WorkspaceLayout;
  readonly seed: number;
  readonly sizes: readonly number[];
  readonly repeats?: number;
  readonly warmupTurns?: number;
}): BenchWorkload[] {
  const check = (name: string, value: number | undefined, from: number) =>
    checkOption({
      name,
      value,
      rule: optionRules.integerFrom(from),
      default: from,
      error: (message) => new BenchError({ code: 'invalid_options', message }),
    });
  const [repeats, warmupTurns] = [
    check('repeats', options.repeats, 1),
    check('warmupTurns', options.warmupTurns, 0),
  ];
  for (const size of options.sizes) check('sizes', size, 1);
  return options.workloads.map((workload) => {
    const batchSizes = options.sizes.flatMap((size) => Array.from({ length: repeats }, () => size));
    const make = (stream: string, item: number, size: number): BenchBatch => {
      const random = new SeededRandom(seedFor({ seed: options.seed, stream, item }));
      const { calls, durationsMs } = workload.batch({ random, size, layout: options.layout });
      return {
        size: calls.length,
        nodes: options.registry.toPlanNodes(calls),
        durationsMs,
        tools: calls.map((call) => call.name),
        argumentChars: calls.map((call) => JSON.stringify(call.input ?? {}).length),
        calls,
      };
    };
    const warmup = Array.from({ length: warmupTurns }, (_, item) =>
      make(`${workload.name}:warm-up`, item, 16),
    );
    return {
      name: workload.name,
      description: workload.description,
      ...(workload.simulatedOnly === true ? { simulatedOnly: true } : {}),
      seed: options.seed,
      warmup,
      batches: batchSizes.map((size, item) => make(workload.name, item, size)),
    };
  });
}
