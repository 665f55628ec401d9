import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type FsFixture, fsFixture } from './fixture.js';
import {
  aimsOutside,
  type HostileWorld,
  hostilePath,
  hostileWorld,
  isOutside,
  MARKER,
  realTarget,
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

describe('the sandbox holds for generated hostile paths: reading tools', () => {
  // The afterEach of temp-dir.ts removes the world after the first test: everything runs in one.
  it('read_file, list_dir, stat, glob and grep never answer outside content', async () => {
    const path = hostilePath(world);
    await fc.assert(
      fc.asyncProperty(
        path,
        fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
        async (p, offset) => {
          count('read_file', [p]);
          const real = realTarget(world, p);
          const content = await check(
            'read_file',
            offset === undefined ? { path: p } : { path: p, offset },
          );
          if (real !== undefined && isOutside(world, real) && !p.includes('\0')) {
            expect(content).toMatch(/^path escapes the workspace: /);
          }
        },
      ),
      { numRuns: RUNS },
    );
    for (const name of ['list_dir', 'stat']) {
      await fc.assert(
        fc.asyncProperty(path, async (p) => {
          count(name, [p]);
          await check(name, { path: p });
        }),
        { numRuns: RUNS },
      );
    }
    await fc.assert(
      fc.asyncProperty(path, path, async (pattern, p) => {
        count('glob', [p]);
        await check('glob', { pattern, path: p });
      }),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('SECRET', '.', '^a', 'a|b', 'OUTSIDE'),
        path,
        fc.option(path, { nil: undefined }),
        async (pattern, p, glob) => {
          count('grep', [p]);
          await check(
            'grep',
            glob === undefined ? { pattern, path: p } : { pattern, path: p, glob },
          );
        },
      ),
      { numRuns: RUNS },
    );
    expectBite(['read_file', 'list_dir', 'stat', 'glob', 'grep']);
  }, 60_000);
});
