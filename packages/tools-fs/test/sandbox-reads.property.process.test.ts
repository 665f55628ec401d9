import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostilePath, isOutside, realTarget } from './hostile-world.js';
import { useSandboxHarness } from './sandbox-harness.js';

const RUNS = 1000;
const harness = useSandboxHarness({ runs: RUNS });
const { check, count, expectBite } = harness;

describe('the sandbox holds for generated hostile paths: reading tools', () => {
  // The afterEach of temp-dir.ts removes the harness.world after the first test: everything runs in one.
  it('read_file, list_dir, stat, glob and grep never answer outside content', async () => {
    const path = hostilePath(harness.world);
    await fc.assert(
      fc.asyncProperty(
        path,
        fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
        async (p, offset) => {
          count('read_file', [p]);
          const real = realTarget(harness.world, p);
          const content = await check(
            'read_file',
            offset === undefined ? { path: p } : { path: p, offset },
          );
          if (real !== undefined && isOutside(harness.world, real) && !p.includes('\0')) {
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
