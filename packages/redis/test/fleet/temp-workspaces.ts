import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, type TestContext } from 'vitest';

/**
 * Temporary folders for the multi-process tests (workspaces, marker logs), each removed after
 * the test that made it (the test of the context given, else the current one). The fs tools' host fence is the user's, shared by every workspace (in
 * the OS temp folder): it is left in place, as other tests may be using it. Call it at the top
 * of a test file: it registers its `afterEach` there.
 *
 * @example
 * ```ts
 * const tempFolder = useTempWorkspaces('toolwaves-fleet-');
 * const root = await tempFolder();
 * ```
 */
export function useTempWorkspaces(prefix: string): (context?: TestContext) => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  return async (context) => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
    // A test that runs at once with others (`it.concurrent`) gives its context: the `afterEach`
    // above would remove its folders when another test ends.
    if (context === undefined) made.push(dir);
    else context.onTestFinished(() => rm(dir, { recursive: true, force: true }));
    return dir;
  };
}
