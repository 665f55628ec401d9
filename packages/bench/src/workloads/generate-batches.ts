import type { ToolRegistry } from '@toolwaves/core';
import { checkOption, describeValue, optionRules } from '@toolwaves/core/internal';
import { BenchError } from '../bench-error.js';
import {
  SEED_MODEL_ARGUMENTS,
  seedExampleWorkload,
  seedModelWorkload,
} from './seed-model-workloads.js';
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

/** Every built-in workload, in report order: the tool workloads, then the seed-model ones. */
export function defaultWorkloads(): Workload[] {
  return [
    exploreWorkload(),
    refactorWorkload(),
    mixedTurnWorkload(),
    hotFileWorkload(),
    barrierHeavyWorkload(),
    remoteToolsWorkload(),
    seedExampleWorkload(),
    seedModelWorkload(),
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
  const repeats = options.repeats ?? 1;
  const warmupTurns = checkOption({
    name: 'warmupTurns',
    value: options.warmupTurns,
    rule: optionRules.integerFrom(0),
    default: 0,
    error: (message) => new BenchError({ code: 'invalid_options', message }),
  });
  assertCount('repeats', repeats);
  for (const size of options.sizes) assertCount('sizes', size);
  return options.workloads.map((workload) => {
    const sizes = workload.sizes ?? options.sizes;
    const batchSizes = sizes.flatMap((size) => Array.from({ length: repeats }, () => size));
    const make = (stream: string, item: number, size: number): BenchBatch => {
      const random = new SeededRandom(seedFor({ seed: options.seed, stream, item }));
      const request = { random, size, layout: options.layout };
      if (workload.kind === 'seed-model') {
        const { nodes, tools, durationsMs } = workload.batch(request);
        const argumentChars = tools.map(
          (tool) => JSON.stringify(SEED_MODEL_ARGUMENTS[tool] ?? {}).length,
        );
        return { size: nodes.length, nodes, durationsMs, tools, argumentChars };
      }
      const { calls, durationsMs } = workload.batch(request);
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
      make(`${workload.name}:warm-up`, item, workload.sizes?.[0] ?? 16),
    );
    return {
      name: workload.name,
      description: workload.description,
      kind: workload.kind,
      ...(workload.kind === 'tools' && workload.simulatedOnly === true
        ? { simulatedOnly: true }
        : {}),
      seed: options.seed,
      warmup,
      batches: batchSizes.map((size, item) => make(workload.name, item, size)),
    };
  });
}

function assertCount(field: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new BenchError({
      code: 'invalid_options',
      message: `Expected \`${field}\` to hold integers from 1 and up, got ${describeValue(value)}`,
    });
  }
}
