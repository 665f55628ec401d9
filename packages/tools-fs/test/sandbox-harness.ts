import { beforeAll, expect } from 'vitest';
import { type FsFixture, fsFixture } from './fixture.js';
import { aimsOutside, type HostileWorld, hostileWorld, MARKER } from './hostile-world.js';

/** What the sandbox properties share: the hostile world, the check of one run, the bite count. */
export interface SandboxHarness {
  /** The hostile world (set up in `beforeAll`). */
  readonly world: HostileWorld;
  /** Runs one tool and checks: no secret in its answer, nothing outside changed. */
  check(name: string, input: object, options?: { restore?: boolean }): Promise<string>;
  /** Counts a run, and whether one of its paths would reach outside without the sandbox. */
  count(name: string, paths: readonly string[]): void;
  /** Every named tool ran `runs` times, and at least a fifth of its inputs aimed outside. */
  expectBite(names: readonly string[]): void;
}

/**
 * Sets up a hostile world with the fs tools on its root (read cache on) in `beforeAll`, and
 * returns the checks the sandbox properties run.
 */
export function useSandboxHarness(options: { runs: number }): SandboxHarness {
  let world: HostileWorld | undefined;
  let fx: FsFixture;
  let before: string;
  const tried = new Map<string, { runs: number; escaping: number }>();
  const worldOf = (): HostileWorld => {
    if (world === undefined) throw new Error('the hostile world is set up in beforeAll');
    return world;
  };

  beforeAll(async () => {
    world = await hostileWorld();
    fx = await fsFixture({ root: world.root, module: { cachedReads: true } });
    before = world.snapshot();
  });

  return {
    get world() {
      return worldOf();
    },
    async check(name, input, checkOptions = {}) {
      const out = await fx.run(name, input);
      expect(out.content).not.toContain(MARKER);
      expect(worldOf().snapshot()).toBe(before);
      if (checkOptions.restore === true) await worldOf().restore();
      return out.content;
    },
    count(name, paths) {
      const entry = tried.get(name) ?? { runs: 0, escaping: 0 };
      entry.runs += 1;
      if (paths.some((path) => aimsOutside(worldOf(), path))) entry.escaping += 1;
      tried.set(name, entry);
    },
    expectBite(names) {
      expect([...tried.keys()].sort()).toEqual([...names].sort());
      for (const [name, { runs, escaping }] of tried) {
        expect(runs, name).toBe(options.runs);
        expect(escaping / runs, name).toBeGreaterThan(0.2);
      }
    },
  };
}
