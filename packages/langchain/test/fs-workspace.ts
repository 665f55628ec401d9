import 'reflect-metadata';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRegistry } from '@toolwaves/core';
import { batchEnds, ToolGates } from '@toolwaves/core/testing';
import { Dispatcher } from '@toolwaves/executor-rx';
import { fsToolsModule } from '@toolwaves/tools-fs';
import { Container } from 'inversify';

/**
 * One model turn: two edits of `a.txt` (the second needs the first's text), a read of `b.txt`
 * and a read of `a.txt`. The edits conflict; the read of b conflicts with nothing; the read of a
 * must wait for both edits.
 */
export const TURN = [
  { id: 'e1', name: 'edit_file', args: { path: 'a.txt', old_string: 'alpha', new_string: 'beta' } },
  { id: 'e2', name: 'edit_file', args: { path: 'a.txt', old_string: 'beta', new_string: 'gamma' } },
  { id: 'rb', name: 'read_file', args: { path: 'b.txt' } },
  { id: 'ra', name: 'read_file', args: { path: 'a.txt' } },
] as const;

/**
 * A temporary workspace (`a.txt`: "alpha", `b.txt`: "bravo") with the real fs tools, each held
 * at a gate the test opens ({@link ToolGates}), and a Dispatcher whose registry holds the same
 * tools (their declarations schedule the framework's calls).
 */
export async function fsWorkspace() {
  const root = await mkdtemp(join(tmpdir(), 'toolwaves-langchain-'));
  await writeFile(join(root, 'a.txt'), 'alpha\n');
  await writeFile(join(root, 'b.txt'), 'bravo\n');
  const container = new Container();
  container.load(fsToolsModule({ root }));
  const fsTools = ToolRegistry.fromContainer(container);
  const gates = new ToolGates();
  const registry = new ToolRegistry();
  for (const name of ['edit_file', 'read_file']) registry.add(gates.wrap(fsTools.get(name)!));
  const batches = batchEnds();
  const dispatcher = new Dispatcher({
    registry,
    mode: 'eager',
    instrumentation: batches.instrumentation,
  });
  return {
    root,
    gates,
    registry,
    dispatcher,
    batches,
    read: (path: string) => readFile(join(root, path), 'utf8'),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/** Lets every pending promise callback and timer-0 task run (nothing here waits on a clock). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
}
