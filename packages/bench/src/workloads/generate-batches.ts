import { describeValue, type ToolRegistry } from '@toolwaves/core';
import { BenchError } from '../bench-error.js';
import type { BenchWorkload } from './bench-batch.js';
import { seedFor } from './seed-for.js';
import { SeededRandom } from './seeded-random.js';
import type { Workload } from './workload.js';
import type { WorkspaceLayout } from './workspace-layout.js';

/** Options of {@link generateBatches}. */
export interface GenerateBatchesOptions {
  readonly workloads: readonly Workload[];
  /** The registry whose declarations turn tool calls into plan nodes (`toPlanNodes`). */
  readonly registry: ToolRegistry;
  /** The workspace the calls refer to. */
  readonly layout: WorkspaceLayout;
  /** The run's seed: the same seed gives the same batches. */
  readonly seed: number;
  /** Batch sizes, each from 1 up (workloads with fixed sizes use theirs). */
  readonly sizes: readonly number[];
  /** Batches per size (default 1). */
  readonly repeats?: number;
}

/**
 * Generates every workload's batches. Tool workloads get their plan nodes from the registry's
 * `toPlanNodes`, so the declarations are the tools' real ones, with `estimateMs` set to each
 * call's sampled duration. Each batch has its own seeded stream ({@link seedFor}), so the
 * batches do not depend on which other workloads or sizes run.
 *
 * @throws {BenchError} `invalid_options` for a size or `repeats` that is not an integer from 1 up.
 * @example
 * generateBatches({ workloads: defaultWorkloads(), registry, layout, seed: 1, sizes: [4, 16] });
 */
export function generateBatches(options: GenerateBatchesOptions): BenchWorkload[] {
  const repeats = options.repeats ?? 1;
  assertCount('repeats', repeats);
  for (const size of options.sizes) assertCount('sizes', size);
  return options.workloads.map((workload) => {
    const sizes = workload.sizes ?? options.sizes;
    const batches = sizes.flatMap((size) => Array.from({ length: repeats }, () => size));
    return {
      name: workload.name,
      description: workload.description,
      kind: workload.kind,
      batches: batches.map((size, item) => {
        const random = new SeededRandom(
          seedFor({ seed: options.seed, stream: workload.name, item }),
        );
        const request = { random, size, layout: options.layout };
        if (workload.kind === 'seed-model') {
          const nodes = workload.batch(request);
          return { size: nodes.length, nodes };
        }
        const { calls, durationsMs } = workload.batch(request);
        const byId = new Map(calls.map((call, index) => [call.id, durationsMs[index]]));
        const nodes = options.registry.toPlanNodes(calls, {
          estimateMs: (call) => byId.get(call.id),
        });
        return { size: calls.length, nodes, calls };
      }),
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
