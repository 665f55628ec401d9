import { rm } from 'node:fs/promises';
import type { ToolRegistry } from '@toolwaves/core';
import { withLatency } from '@toolwaves/core/testing';
import type { BenchBatch } from '../workloads/bench-batch.js';
import type { WorkspaceLayout } from '../workloads/workspace-layout.js';
import { createWorkspace } from './create-workspace.js';

/** Options of {@link onDelayedWorkspace}. */
export interface DelayedWorkspaceOptions<T> {
  /** The batch whose calls run: each is delayed by its sampled duration × `latencyScale`. */
  readonly batch: BenchBatch;
  readonly layout: WorkspaceLayout;
  /** The real tools on a workspace root. */
  readonly registryFor: (root: string) => ToolRegistry;
  readonly latencyScale: number;
  /** What to do with the delayed tools (the timed part is up to it). */
  readonly run: (registry: ToolRegistry) => Promise<T>;
}

/**
 * Runs `run` with the real tools over a fresh workspace of `layout`, every call of the batch
 * delayed by its sampled duration × `latencyScale` ({@link withLatency}, matched by call id);
 * the workspace is removed afterwards, whether `run` succeeded or not. The real runs of whole
 * batches and of streamed turns both go through it.
 *
 * @example
 * const results = await onDelayedWorkspace({ batch, layout, registryFor, latencyScale: 0.05,
 *   run: (registry) => new Dispatcher({ registry }).dispatch(batch.calls ?? []) });
 * @see createWorkspace
 */
export async function onDelayedWorkspace<T>(options: DelayedWorkspaceOptions<T>): Promise<T> {
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
