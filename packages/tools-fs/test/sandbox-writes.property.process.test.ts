import fc from 'fast-check';
import { describe, it } from 'vitest';
import { hostilePath } from './hostile-world.js';
import { useSandboxHarness } from './sandbox-harness.js';

const RUNS = 1000;
const harness = useSandboxHarness({ runs: RUNS });
const { check, count, expectBite } = harness;

describe('the sandbox holds for generated hostile paths: writing tools', () => {
  // The afterEach of temp-dir.ts removes the harness.world after the first test: everything runs in one.
  it('write_file, edit_file, move_file and delete_file never change anything outside', async () => {
    const path = hostilePath(harness.world);
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
  }, 120_000); // 4000 runs, each a real write, took 61 s on a 2-core machine at load 26
});
