import { lstat, mkdir, rename } from 'node:fs/promises';
import { dirname, sep } from 'node:path';
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

/** Input of `move_file`. */
export const moveFileInput = z.object({
  from: z
    .string()
    .describe(
      'The file or folder to move or rename: relative to the workspace root, or absolute inside it.',
    ),
  to: z
    .string()
    .describe('Its new path (not the folder to put it in). Missing folders are created.'),
  overwrite: z
    .boolean()
    .optional()
    .describe('Replace a file already at `to`. Default false: an existing `to` is an error.'),
});

/** Input of `move_file`. */
export type MoveFileInput = z.infer<typeof moveFileInput>;

/**
 * `move_file`: moves or renames a file or folder inside the workspace (one `rename`, so it is
 * atomic), creating missing folders of `to`. Onto an existing path it refuses unless `overwrite`
 * is set, and even then only a file replaces a file (never a folder, never a file over a folder).
 * Moving the root, or a folder into itself, is refused. Through a symbolic link, the link's
 * target is moved.
 *
 * Declarations: concurrency-safe, a write on both canonical keys (`from` and `to`).
 *
 * @example
 * ```ts
 * { name: 'move_file', input: { from: 'src/old.ts', to: 'src/lib/new.ts' } }
 * // "moved src/old.ts to src/lib/new.ts"
 * ```
 * @see fsToolsModule
 */
@tool({
  name: 'move_file',
  description:
    'Move or rename a workspace file or folder. Fails if `to` exists unless overwrite is set (files only).',
  input: moveFileInput,
})
export class MoveFileTool extends ToolClass {
  constructor(
    @inject(FS_WORKSPACE) private readonly workspace: Workspace,
    @inject(FS_READ_CACHE) private readonly cache: ReadCache,
    @inject(FS_HOST_FENCE) private readonly fence: HostFence,
  ) {
    super();
  }

  isConcurrencySafe(input: MoveFileInput): boolean {
    return this.#uses(input) !== undefined;
  }

  access(input: MoveFileInput): readonly FsAccess[] {
    return this.#uses(input) ?? [];
  }

  execute(input: MoveFileInput, context: ToolContext): Promise<ToolOutput> {
    return runFsTool(async () => {
      const from = this.workspace.resolve(input.from, { field: 'from' });
      const to = this.workspace.resolve(input.to, { field: 'to' });
      if (from.absolute === this.workspace.root) {
        throw new FsToolsError({
          code: 'invalid_path',
          message: 'cannot move the workspace root',
        });
      }
      let display = from.display;
      const write = fencedWrite(context, [from, to]);
      try {
        await this.fence.claim(write);
        const source = await lstat(from.absolute);
        if (from.absolute === to.absolute) {
          return `nothing to do: \`from\` and \`to\` are the same path (${from.display})`;
        }
        if (to.absolute.startsWith(from.absolute + sep)) {
          throw new FsToolsError({
            code: 'invalid_path',
            message: `cannot move ${from.display} into itself (${to.display})`,
          });
        }
        display = to.display;
        const existing = await lstat(to.absolute).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return undefined;
          throw error;
        });
        if (existing !== undefined && input.overwrite !== true) {
          throw new FsToolsError({
            code: 'already_exists',
            message: `cannot move ${from.display}: \`to\` ${to.display} already exists (set overwrite to replace a file)`,
          });
        }
        if (existing !== undefined && (!existing.isFile() || !source.isFile())) {
          throw new FsToolsError({
            code: 'already_exists',
            message: `cannot move ${from.display} over ${to.display}: overwrite replaces a file with a file only`,
          });
        }
        await mkdir(dirname(to.absolute), { recursive: true });
        await this.fence.commit(write, () => rename(from.absolute, to.absolute));
        const replaced = existing === undefined ? '' : ' (replaced the file that was there)';
        return `moved ${from.display} to ${to.display}${replaced}`;
      } catch (error) {
        throw fsErrorFrom(error, display);
      } finally {
        this.cache.invalidate([from.key, to.key]);
      }
    });
  }

  #uses(input: MoveFileInput): readonly FsAccess[] | undefined {
    return pathAccess(this.workspace, [
      { path: input.from, mode: 'write' },
      { path: input.to, mode: 'write' },
    ]);
  }
}
