import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type FsFixture, fsFixture } from './fixture.js';
import {
  aimsOutside,
  type HostileWorld,
  hostilePath,
  hostileWorld,
  MARKER,
} from './hostile-world.js';

const RUNS = 1000;

let world: HostileWorld;
let fx: FsFixture;
let before: string;

beforeAll(async () => {
  world = await hostileWorld();
  fx = await fsFixture({ root: world.root, module: { cachedReads: true } });
  before = world.snapshot();
});

/** What a run of one tool must keep: no secret in its answer, nothing outside changed. */
async function check(
  name: string,
  input: object,
  options: { restore?: boolean } = {},
): Promise<string> {
  const out = await fx.run(name, input);
  expect(out.content).not.toContain(MARKER);
  expect(world.snapshot()).toBe(before);
  if (options.restore === true) await world.restore();
  return out.content;
}

/** Whether one of the paths, without the sandbox, would touch something outside the root. */
function escapes(paths: readonly string[]): boolean {
  return paths.some((path) => aimsOutside(world, path));
}

/** Inputs that would have reached outside without the sandbox, per tool: the test must bite. */
const tried = new Map<string, { runs: number; escaping: number }>();

function count(name: string, paths: readonly string[]): void {
  const entry = tried.get(name) ?? { runs: 0, escaping: 0 };
  entry.runs += 1;
  if (escapes(paths)) entry.escaping += 1;
  tried.set(name, entry);
}

/** Every tool ran RUNS times, and at least a fifth of its inputs aimed outside the root. */
function expectBite(names: readonly string[]): void {
  expect([...tried.keys()].sort()).toEqual([...names].sort());
  for (const [name, { runs, escaping }] of tried) {
    expect(runs, name).toBe(RUNS);
    expect(escaping / runs, name).toBeGreaterThan(0.2);
  }
}

describe('the sandbox holds for generated hostile paths: writing tools', () => {
  // The afterEach of temp-dir.ts removes the world after the first test: everything runs in one.
  it('write_file, edit_file, move_file and delete_file never change anything outside', async () => {
    const path = hostilePath(world);
    await fc.assert(
      fc.asyncProperty(path, fc.constantFrom('', 'x', 'pwned'), async (p, content) => {
        count('write_file', [p]);
        await check('write_file', { path: p, content }, { restore: true });
      }),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(
        path,
        fc.constantFrom('a', 'b', 'x', 'SECRET'),
        fc.boolean(),
        async (p, old, all) => {
          count('edit_file', [p]);
          await check(
            'edit_file',
            { path: p, old_string: old, new_string: 'pwned', replace_all: all },
            { restore: true },
          );
        },
      ),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(path, path, fc.boolean(), async (from, to, overwrite) => {
        count('move_file', [from, to]);
        await check('move_file', { from, to, overwrite }, { restore: true });
      }),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(path, async (p) => {
        count('delete_file', [p]);
        await check('delete_file', { path: p }, { restore: true });
      }),
      { numRuns: RUNS },
    );
    expectBite(['write_file', 'edit_file', 'move_file', 'delete_file']);
  }, 60_000);
});
