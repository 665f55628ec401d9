import { stat } from 'node:fs/promises';
import { ToolClass, type ToolOutput, tool } from '@toolwaves/core';
import { inject } from 'inversify';
import { z } from 'zod';
import { fsErrorFrom } from './fs-error-from.js';
import { FS_WORKSPACE } from './fs-workspace-token.js';
import { type FsAccess, pathAccess } from './path-access.js';
import { runFsTool } from './run-fs-tool.js';
import type { Workspace } from './workspace.js';

/** Input of `stat`. */
export const statInput = z.object({
  path: z
    .string()
    .describe(
      'The file or folder to describe: relative to the workspace root, or absolute inside it.',
    ),
});

/** Input of `stat`. */
export type StatInput = z.infer<typeof statInput>;

/**
 * `stat`: what is at a path, one `field: value` a line: `path` (canonical, relative to the root,
 * so a symbolic link shows where it leads), `type` (`file`, `directory` or `other`), `size` in
 * bytes, `modified` (ISO 8601) and `mode` (octal permission bits). A missing path is a soft
 * error `not found`.
 *
 * Declarations: concurrency-safe, a read on the path's canonical key.
 *
 * @example
 * ```ts
 * { name: 'stat', input: { path: 'a.ts' } }
 * // "path: a.ts\ntype: file\nsize: 12 bytes\nmodified: 2025-01-01T00:00:00.000Z\nmode: 644"
 * ```
 * @see fsToolsModule
 */
@tool({
  name: 'stat',
  description:
    'Describe a workspace file or folder: its type, size in bytes, last modification time and permissions.',
  input: statInput,
})
export class StatTool extends ToolClass {
  constructor(@inject(FS_WORKSPACE) private readonly workspace: Workspace) {
    super();
  }

  isConcurrencySafe(input: StatInput): boolean {
    return pathAccess(this.workspace, [{ path: input.path, mode: 'read' }]) !== undefined;
  }

  access(input: StatInput): readonly FsAccess[] {
    return pathAccess(this.workspace, [{ path: input.path, mode: 'read' }]) ?? [];
  }

  execute(input: StatInput): Promise<ToolOutput> {
    return runFsTool(async () => {
      const target = this.workspace.resolve(input.path);
      const info = await stat(target.absolute).catch((error: unknown) => {
        throw fsErrorFrom(error, target.display);
      });
      const type = info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other';
      return [
        `path: ${target.display}`,
        `type: ${type}`,
        `size: ${info.size} bytes`,
        `modified: ${info.mtime.toISOString()}`,
        `mode: ${(info.mode & 0o7777).toString(8)}`,
      ].join('\n');
    });
  }
}
