import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRegistry } from '@toolwaves/core';
import { type BatchEnds, batchEnds, ToolGates } from '@toolwaves/core/testing';
import { Container } from 'inversify';
import { fsToolsModule } from '../fs-tools-module.js';

/**
 * One model turn for the framework adapters' tests: two edits of `a.txt` (the second needs the
 * first's text), a read of `b.txt` and a read of `a.txt` (in a {@link gatedFsWorkspace}). The
 * edits conflict; the read of b conflicts with nothing; the read of a waits for both edits.
 */
export const EDIT_TURN = [
  { id: 'e1', name: 'edit_file', args: { path: 'a.txt', old_string: 'alpha', new_string: 'beta' } },
  { id: 'e2', name: 'edit_file', args: { path: 'a.txt', old_string: 'beta', new_string: 'gamma' } },
  { id: 'rb', name: 'read_file', args: { path: 'b.txt' } },
  { id: 'ra', name: 'read_file', args: { path: 'a.txt' } },
] as const;

/** What {@link gatedFsWorkspace} returns. */
export interface GatedFsWorkspace {
  /** The temporary workspace's folder. */
  readonly root: string;
  /** `edit_file` and `read_file`, each call held at its gate (by its `toolCallId`). */
  readonly registry: ToolRegistry;
  readonly gates: ToolGates;
  /** For the Dispatcher's `instrumentation` option: tells when a turn has settled. */
  readonly batches: BatchEnds;
  /** A workspace file's text. */
  read(path: string): Promise<string>;
  /** Deletes the workspace. */
  remove(): Promise<void>;
}

/**
 * A temporary workspace (`a.txt`: "alpha", `b.txt`: "bravo") with the real `edit_file` and
 * `read_file`, each held at a gate the test opens ({@link ToolGates}): which calls overlapped is
 * read from the recorded start and end events, never from a clock.
 *
 * @example
 * ```ts
 * const workspace = await gatedFsWorkspace();
 * const dispatcher = new Dispatcher({
 *   registry: workspace.registry,
 *   mode: 'eager',
 *   instrumentation: workspace.batches.instrumentation,
 * });
 * ```
 */
export async function gatedFsWorkspace(): Promise<GatedFsWorkspace> {
  const root = await mkdtemp(join(tmpdir(), 'toolwaves-gated-'));
  await writeFile(join(root, 'a.txt'), 'alpha\n');
  await writeFile(join(root, 'b.txt'), 'bravo\n');
  const container = new Container();
  container.load(fsToolsModule({ root }));
  const fsTools = ToolRegistry.fromContainer(container);
  const gates = new ToolGates();
  const registry = new ToolRegistry();
  for (const name of ['edit_file', 'read_file']) {
    const tool = fsTools.get(name);
    if (tool !== undefined) registry.add(gates.wrap(tool));
  }
  return {
    root,
    registry,
    gates,
    batches: batchEnds(),
    read: (path) => readFile(join(root, path), 'utf8'),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/** Lets every pending promise callback and immediate run (nothing here waits on a clock). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
}
