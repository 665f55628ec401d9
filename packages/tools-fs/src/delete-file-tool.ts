import { lstat, rmdir, unlink } from 'node:fs/promises';
import { ToolClass, type ToolContext, type ToolOutput, tool } from '@toolwaves/core';
import { inject } from 'inversify';
import { z } from 'zod';
import { fencedWrite } from './fenced-write.js';
import { fsErrorFrom } from './fs-error-from.js';
import { FS_HOST_FENCE } from './fs-host-fence-token.js';
import { FS_READ_CACHE } from './fs-read-cache-token.js';
import { FsToolsError } from './fs-tools-error.js';
import { FS_WORKSPACE } from './fs-workspace-token.js';
import type { HostFence } from './host-fence.js';
import { type FsAccess, pathAccess } from './path-access.js';
import type { ReadCache } from './read-cache.js';
import { runFsTool } from './run-fs-tool.js';
import type { Workspace } from './workspace.js';

/** Input of `delete_file`. */
export const deleteFileInput = z.object({
  path: z
    .string()
    .describe(
      'The file (or empty folder) to delete: relative to the workspace root, or absolute inside it.',
    ),
});

/** Input of `delete_file`. */
export type DeleteFileInput = z.infer<typeof deleteFileInput>;

/**
 * `delete_file`: deletes a file, or an empty folder (a folder that still holds something is a
 * soft error `not_empty`; nothing is deleted recursively). The root is never deleted. Through a
 * symbolic link, the link's target is deleted.
 *
 * Declarations: concurrency-safe, a write on the path's canonical key.
 *
 * @example
 * ```ts
 * { name: 'delete_file', input: { path: 'tmp/out.log' } }
 * // "deleted tmp/out.log"
 * ```
 * @see fsToolsModule
 */
@tool({
  name: 'delete_file',
  description: 'Delete a workspace file, or an empty folder.',
  input: deleteFileInput,
})
export class DeleteFileTool extends ToolClass {
  constructor(
    @inject(FS_WORKSPACE) private readonly workspace: Workspace,
    @inject(FS_READ_CACHE) private readonly cache: ReadCache,
    @inject(FS_HOST_FENCE) private readonly fence: HostFence,
  ) {
    super();
  }

  isConcurrencySafe(input: DeleteFileInput): boolean {
    return pathAccess(this.workspace, [{ path: input.path, mode: 'write' }]) !== undefined;
  }

  access(input: DeleteFileInput): readonly FsAccess[] {
    return pathAccess(this.workspace, [{ path: input.path, mode: 'write' }]) ?? [];
  }

  execute(input: DeleteFileInput, context: ToolContext): Promise<ToolOutput> {
    return runFsTool(async () => {
      const target = this.workspace.resolve(input.path);
      if (target.absolute === this.workspace.root) {
        throw new FsToolsError({
          code: 'invalid_path',
          message: 'cannot delete the workspace root',
        });
      }
      const write = fencedWrite(context, [target]);
      try {
        await this.fence.claim(write);
        const info = await lstat(target.absolute);
        if (info.isDirectory()) {
          await this.fence.commit(write, () => rmdir(target.absolute));
          return `deleted the empty folder ${target.display}`;
        }
        await this.fence.commit(write, () => unlink(target.absolute));
        return `deleted ${target.display}`;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOTEMPTY' || code === 'EEXIST') {
          throw new FsToolsError({
            code: 'not_empty',
            message: `directory not empty: \`${target.display}\` (delete_file removes files and empty folders only)`,
            cause: error,
          });
        }
        throw fsErrorFrom(error, target.display);
      } finally {
        this.cache.invalidate([target.key]);
      }
    });
  }
}
