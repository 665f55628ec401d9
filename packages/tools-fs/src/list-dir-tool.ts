import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolClass, type ToolOutput, tool } from '@toolwaves/core';
import { inject } from 'inversify';
import { z } from 'zod';
import { fsErrorFrom } from './fs-error-from.js';
import { FsToolsError } from './fs-tools-error.js';
import { FS_WORKSPACE } from './fs-workspace-token.js';
import { type FsAccess, pathAccess } from './path-access.js';
import { plural } from './plural.js';
import { runFsTool } from './run-fs-tool.js';
import type { ResolvedPath, Workspace } from './workspace.js';

/** Input of `list_dir`. */
export const listDirInput = z.object({
  path: z
    .string()
    .optional()
    .describe(
      'The folder to list: relative to the workspace root, or absolute inside it. Default: the root.',
    ),
});

/** Input of `list_dir`. */
export type ListDirInput = z.infer<typeof listDirInput>;

/**
 * `list_dir`: the entries of one folder, sorted by name, one a line: `name/` for a folder,
 * `name (N bytes)` for a file, `name@ -> target` for a symbolic link (the target shown relative
 * to the root, or `(outside the workspace)`; links are never followed), hidden entries included.
 * Capped at `maxResults` entries with a note.
 *
 * Declarations: concurrency-safe, a read on the folder's canonical key, so it waits for a write
 * anywhere below the folder (and a later write below it waits for the listing).
 *
 * @example
 * ```ts
 * { name: 'list_dir', input: { path: 'src' } }
 * // "a.ts (120 bytes)\nlib/\nlink@ -> src/a.ts"
 * ```
 * @see fsToolsModule
 */
@tool({
  name: 'list_dir',
  description:
    'List the entries of a workspace folder: sub-folders end in /, files show their size, symbolic links show their target.',
  input: listDirInput,
})
export class ListDirTool extends ToolClass {
  constructor(@inject(FS_WORKSPACE) private readonly workspace: Workspace) {
    super();
  }

  isConcurrencySafe(input: ListDirInput): boolean {
    return pathAccess(this.workspace, [{ path: input.path ?? '.', mode: 'read' }]) !== undefined;
  }

  access(input: ListDirInput): readonly FsAccess[] {
    return pathAccess(this.workspace, [{ path: input.path ?? '.', mode: 'read' }]) ?? [];
  }

  execute(input: ListDirInput): Promise<ToolOutput> {
    return runFsTool(async () => {
      const folder = this.workspace.resolve(input.path ?? '.');
      let entries: Dirent[];
      try {
        entries = await readdir(folder.absolute, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') {
          throw new FsToolsError({
            code: 'not_a_directory',
            message: `not a directory: \`${folder.display}\` (read_file reads a file)`,
            cause: error,
          });
        }
        throw fsErrorFrom(error, folder.display);
      }
      if (entries.length === 0) return `(empty directory: ${folder.display})`;
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const { maxResults } = this.workspace.settings;
      const shown = entries.slice(0, maxResults);
      const lines = await Promise.all(
        shown.map((entry) => this.#describe(join(folder.absolute, entry.name), entry)),
      );
      if (entries.length > shown.length) {
        lines.push('', `[showing the first ${shown.length} of ${entries.length} entries]`);
      }
      return lines.join('\n');
    });
  }

  async #describe(absolute: string, entry: Dirent): Promise<string> {
    if (entry.isDirectory()) return `${entry.name}/`;
    if (entry.isSymbolicLink()) return `${entry.name}@ -> ${await this.#linkTarget(absolute)}`;
    const info = await lstat(absolute).catch(() => undefined);
    if (info === undefined) return `${entry.name} (vanished)`;
    if (entry.isFile()) return `${entry.name} (${plural(info.size, 'byte')})`;
    const kind = entry.isFIFO() ? 'fifo' : entry.isSocket() ? 'socket' : 'device';
    return `${entry.name} (${kind})`;
  }

  /** Where a link leads, relative to the root, without following it out of the workspace. */
  async #linkTarget(absolute: string): Promise<string> {
    let target: ResolvedPath;
    try {
      target = this.workspace.resolve(absolute);
    } catch (error) {
      const escapes = error instanceof FsToolsError && error.code === 'path_escape';
      return escapes ? '(outside the workspace)' : '(a loop of links)';
    }
    const exists = await lstat(target.absolute).then(
      () => true,
      () => false,
    );
    return exists ? target.display : `${target.display} (missing)`;
  }
}
