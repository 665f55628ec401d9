import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, type TestContext } from 'vitest';

const made: string[] = [];

/**
 * A new empty folder under the OS temp folder (its real path), removed after the current test:
 * after the test of `context` when given (a test that runs at once with others, `it.concurrent`:
 * the file-wide `afterEach` below would remove its folders when another test ends).
 */
export async function tempDir(context?: TestContext): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'toolwaves-fs-')));
  if (context === undefined) made.push(dir);
  else context.onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});
