import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HostFence } from '@toolwaves/tools-fs';
import { afterEach } from 'vitest';

/**
 * Temporary folders for the multi-process tests (workspaces, marker logs), each removed after
 * the test that made it, together with the fs tools' host fence of a workspace made there (it
 * lives outside the workspace, in the OS temp folder). Call it at the top of a test file: it
 * registers its `afterEach` there.
 *
 * @example
 * ```ts
 * const tempFolder = useTempWorkspaces('toolwaves-fleet-');
 * const root = await tempFolder();
 * ```
 */
export function useTempWorkspaces(prefix: string): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    for (const dir of made.splice(0)) {
      await rm(dir, { recursive: true, force: true });
      await rm(HostFence.forWorkspace(dir).dir, { recursive: true, force: true });
    }
  });
  return async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
    made.push(dir);
    return dir;
  };
}
