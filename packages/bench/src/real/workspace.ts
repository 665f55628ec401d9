import { accessSync, constants } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ToolRegistry } from '@toolwaves/core';
import { withLatency } from '@toolwaves/core/testing';
import type { BenchBatch } from '../workloads/workload.js';
import { fileContent, type WorkspaceLayout } from '../workloads/workspace-layout.js';

/**
 * Writes a fresh workspace of the layout into a new temporary folder and returns its path (the
 * caller removes it). The folder is in `/dev/shm` when it is writable (memory-backed: the
 * tools' `fsync` costs nothing, so disk noise stays out of the wall-clock), else the OS temp
 * folder.
 */
export async function createWorkspace(options: { layout: WorkspaceLayout }): Promise<string> {
  const root = await mkdtemp(
    join(writable('/dev/shm') ? '/dev/shm' : tmpdir(), 'toolwaves-bench-'),
  );
  const { layout } = options;
  const files = [...layout.sourceFiles, ...layout.docs, ...layout.scratchFiles];
  const folders = new Set(files.map((file) => dirname(join(root, file))));
  await Promise.all([...folders].map((folder) => mkdir(folder, { recursive: true })));
  await Promise.all(files.map((file) => writeFile(join(root, file), fileContent(file))));
  return root;
}

function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
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
