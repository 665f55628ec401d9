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

/** Options of {@link gatedFsWorkspace}. */
export interface GatedFsWorkspaceOptions<D> {
  /**
   * Makes the test's dispatcher from the workspace's registry and an instrumentation that tells
   * when a turn has settled (`batches`): `(settings) => new Dispatcher({ ...settings, mode: 'eager' })`.
   */
  readonly dispatcher: (settings: {
    readonly registry: ToolRegistry;
    readonly instrumentation: BatchEnds['instrumentation'];
  }) => D;
}

/** What {@link gatedFsWorkspace} returns. */
export interface GatedFsWorkspace<D> {
  /** The temporary workspace's folder. */
  readonly root: string;
  /** `edit_file` and `read_file`, each call held at its gate (by its `toolCallId`). */
  readonly registry: ToolRegistry;
  readonly gates: ToolGates;
  /** The batches (turns) the dispatcher ended: `await batches.until(1)` once a turn has settled. */
  readonly batches: BatchEnds;
  /** The dispatcher `options.dispatcher` made. */
  readonly dispatcher: D;
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
 * const { dispatcher, gates, remove } = await gatedFsWorkspace({
 *   dispatcher: (settings) => new Dispatcher({ ...settings, mode: 'eager' }),
 * });
 * ```
 * @see driveEditTurn to run the {@link EDIT_TURN} through its gates.
 */
export async function gatedFsWorkspace<D>(
  options: GatedFsWorkspaceOptions<D>,
): Promise<GatedFsWorkspace<D>> {
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
  const batches = batchEnds();
  return {
    root,
    registry,
    gates,
    batches,
    dispatcher: options.dispatcher({ registry, instrumentation: batches.instrumentation }),
    read: (path) => readFile(join(root, path), 'utf8'),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/** Lets every pending promise callback and immediate run (nothing here waits on a clock). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** What {@link driveEditTurn} saw: the calls that had started while each edit was held. */
export interface EditTurnObservation {
  /** Sorted: the calls started while the first edit was held at its gate. */
  readonly whileFirstEditHeld: readonly string[];
  /** Sorted: the calls started while the second edit was held at its gate. */
  readonly whileSecondEditHeld: readonly string[];
}

/**
 * Drives the {@link EDIT_TURN} a framework is running through its gates: waits for the first
 * edit and the read of b to start, notes what has started, lets them run; waits for the second
 * edit, notes again, lets it run; then lets the read of a run once it starts. Correct scheduling
 * gives `{ whileFirstEditHeld: ['e1', 'rb'], whileSecondEditHeld: ['e1', 'e2', 'rb'] }`; a
 * schedule that never starts a call the test waits for leaves the promise pending.
 *
 * @example
 * ```ts
 * const run = agent.invoke(prompt); // a framework running the EDIT_TURN on the workspace's tools
 * const observed = await driveEditTurn(gates);
 * await run;
 * expect({ ...observed, ...editTurnSchedule(gates) }).toEqual(EDIT_TURN_KEPT_APART);
 * ```
 * @see editTurnSchedule, EDIT_TURN_KEPT_APART
 */
export async function driveEditTurn(gates: ToolGates): Promise<EditTurnObservation> {
  await Promise.all([gates.started('e1'), gates.started('rb')]);
  await settle();
  const whileFirstEditHeld = gates.startedIds().sort();
  gates.open('rb');
  gates.open('e1');
  await gates.started('e2');
  await settle();
  const whileSecondEditHeld = gates.startedIds().sort();
  gates.open('e2');
  await gates.started('ra');
  gates.open('ra');
  return { whileFirstEditHeld, whileSecondEditHeld };
}

/**
 * The {@link EDIT_TURN}'s schedule as the gates recorded it (each should be `true`): the edits
 * apart and in order, the read of b beside the first edit, the read of a after both edits.
 *
 * @see driveEditTurn
 */
export function editTurnSchedule(gates: ToolGates) {
  const at = (type: 'start' | 'end', id: string) => gates.indexOf(type, id);
  return {
    editsApart: !gates.overlapped('e1', 'e2'),
    editsInOrder: at('end', 'e1') !== -1 && at('start', 'e2') > at('end', 'e1'),
    readOfBBesideFirstEdit: gates.overlapped('e1', 'rb'),
    readOfAAfterEdits: at('end', 'e2') !== -1 && at('start', 'ra') > at('end', 'e2'),
  };
}

/**
 * What a correct schedule of the {@link EDIT_TURN} shows, from the scenario itself: the second
 * edit and the read of a wait for the first edit (they conflict with it), the read of b does
 * not; the read of a also waits for the second edit. Compare with
 * `{ ...(await driveEditTurn(gates)), ...editTurnSchedule(gates) }`.
 */
export const EDIT_TURN_KEPT_APART = {
  whileFirstEditHeld: ['e1', 'rb'],
  whileSecondEditHeld: ['e1', 'e2', 'rb'],
  editsApart: true,
  editsInOrder: true,
  readOfBBesideFirstEdit: true,
  readOfAAfterEdits: true,
} as const;
