import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCommandEnvironment } from '../src/command-environment.js';
import { classifyCommand } from '../src/index.js';
import { runShell } from '../src/run-shell.js';
import { COMMAND_TABLE } from './command-table.js';
import { type CommandWorld, contents, makeWorld, markUnread, readSince } from './command-world.js';

/** Worlds the commands run in, one command at a time each (access times tell who read what). */
const LANES = 4;

interface Outcome {
  readonly command: string;
  readonly classifiedReadOnly: boolean;
  readonly reads: readonly string[];
  /** What a command classified read-only changed (paths), read outside what it declared, or left in HOME. */
  readonly changed: readonly string[];
  readonly undeclared: readonly string[];
  readonly homeLeft: readonly string[];
  readonly output: string;
}

const covered = (path: string, reads: readonly string[]) =>
  reads.some((read) => path === read || path.startsWith(`${read}/`));

/** Runs one command classified read-only for real, by /bin/sh with the stated environment. */
async function runReadOnly(world: CommandWorld, command: string, reads: readonly string[]) {
  const before = contents(world);
  markUnread(world);
  const home = mkdtempSync(join(tmpdir(), 'toolwaves-table-home-'));
  try {
    const result = await runShell({
      file: '/bin/sh',
      args: ['-c', command],
      cwd: world.root,
      env: runCommandEnvironment({ root: world.root, home, readOnly: true }),
      timeoutMs: 10_000,
      signal: new AbortController().signal,
    });
    const undeclared = readSince(world).filter((path) => !covered(path, reads));
    const after = contents(world);
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
      (path) => before.get(path) !== after.get(path),
    );
    return { changed, undeclared, homeLeft: readdirSync(home), output: result.content };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

describe('a table of commands run for real by /bin/sh', () => {
  const outcomes = new Map<string, Outcome>();

  beforeAll(async () => {
    const worlds = await Promise.all(Array.from({ length: LANES }, () => makeWorld()));
    const queue = [...COMMAND_TABLE.map(([command]) => command)];
    await Promise.all(
      worlds.map(async (world) => {
        for (let command = queue.shift(); command !== undefined; command = queue.shift()) {
          const found = classifyCommand(command, { root: world.root });
          // Each world has its own root: declared reads are compared as paths inside it.
          if (found.concurrencySafe) {
            const ran = await runReadOnly(world, command, found.reads);
            const relative = (paths: readonly string[]) =>
              paths.map((path) => path.replace(world.dir, '<world>'));
            outcomes.set(command, {
              command,
              classifiedReadOnly: true,
              reads: relative(found.reads),
              changed: relative(ran.changed),
              undeclared: relative(ran.undeclared),
              homeLeft: ran.homeLeft,
              output: ran.output,
            });
          } else {
            // Nothing about running an unsafe command is checked (the sandbox has tests of its
            // own): its row checks the classification, and the reason names why on a failure.
            outcomes.set(command, {
              command,
              classifiedReadOnly: false,
              reads: [],
              changed: [],
              undeclared: [],
              homeLeft: [],
              output: found.reason,
            });
          }
        }
      }),
    );
  }, 300_000);

  it('holds at least 250 distinct commands', () => {
    expect(new Set(COMMAND_TABLE.map(([command]) => command)).size).toBe(COMMAND_TABLE.length);
    expect(COMMAND_TABLE.length).toBeGreaterThanOrEqual(250);
  });

  it.each(COMMAND_TABLE)('%j is classified %s', (command, expected) => {
    const outcome = outcomes.get(command);
    expect(outcome, 'ran').toBeDefined();
    expect({
      command,
      readOnly: outcome?.classifiedReadOnly,
      why: outcome?.output.slice(0, 200),
    }).toMatchObject({ command, readOnly: expected === 'read' });
  });

  it('every command classified read-only changed nothing, inside the root or out, and read only what it declared', () => {
    const broken = [...outcomes.values()].filter(
      (outcome) =>
        outcome.classifiedReadOnly &&
        (outcome.changed.length > 0 ||
          outcome.undeclared.length > 0 ||
          outcome.homeLeft.length > 0),
    );
    expect(
      broken.map(({ command, changed, undeclared, homeLeft, reads }) => ({
        command,
        changed,
        undeclared,
        homeLeft,
        reads,
      })),
    ).toEqual([]);
  });

  it('the checks can fail: a read of the secret and a write are seen', async () => {
    const world = await makeWorld();
    const secret = join(world.outside, 'secret.txt');
    const read = await runReadOnly(world, `cat ${secret}`, [world.root]);
    expect(read.undeclared).toEqual([secret]);
    const write = await runReadOnly(world, 'echo x >> a.txt', [world.root]);
    expect(write.changed).toEqual([join(world.root, 'a.txt')]);
    const listed = await runReadOnly(world, 'ls src', [join(world.root, 'docs')]);
    expect(listed.undeclared).toEqual([join(world.root, 'src')]);
  });
});
