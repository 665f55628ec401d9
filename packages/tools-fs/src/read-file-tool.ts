import { ToolClass, type ToolOutput, tool } from '@toolwaves/core';
import { inject } from 'inversify';
import { z } from 'zod';
import { FS_READ_CACHE } from './fs-read-cache-token.js';
import { FS_WORKSPACE } from './fs-workspace-token.js';
import { type FsAccess, pathAccess } from './path-access.js';
import type { ReadCache } from './read-cache.js';
import { readTextFile } from './read-text-file.js';
import { runFsTool } from './run-fs-tool.js';
import type { Workspace } from './workspace.js';

/** Input of `read_file`. */
export const readFileInput = z.object({
  path: z
    .string()
    .describe('The file to read: relative to the workspace root, or absolute inside it.'),
  offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('1-based number of the first line to show. Default 1.'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Most lines to show. Default: the workspace limit (2000 unless configured).'),
});

/** Input of `read_file`. */
export type ReadFileInput = z.infer<typeof readFileInput>;

/**
 * `read_file`: a text file's lines, numbered like `cat -n`, within the line and byte limits
 * (a closing note says what was left out and the `offset` to read on with). A binary file is
 * reported, not shown.
 *
 * Declarations: concurrency-safe, a read on the file's canonical key. With `cachedReads` the
 * answer is memoized until a write overlaps it.
 *
 * @example
 * ```ts
 * { name: 'read_file', input: { path: 'src/a.ts', offset: 10, limit: 20 } }
 * // "    10\texport const a = 1;\n    11\t..."
 * ```
 * @see fsToolsModule
 */
@tool({
  name: 'read_file',
  description:
    'Read a text file of the workspace. Answers its lines numbered like `cat -n`; use offset and limit to read a long file in parts.',
  input: readFileInput,
})
export class ReadFileTool extends ToolClass {
  constructor(
    @inject(FS_WORKSPACE) private readonly workspace: Workspace,
    @inject(FS_READ_CACHE) private readonly cache: ReadCache,
  ) {
    super();
  }

  isConcurrencySafe(input: ReadFileInput): boolean {
    return pathAccess(this.workspace, [{ path: input.path, mode: 'read' }]) !== undefined;
  }

  access(input: ReadFileInput): readonly FsAccess[] {
    return pathAccess(this.workspace, [{ path: input.path, mode: 'read' }]) ?? [];
  }

  execute(input: ReadFileInput): Promise<ToolOutput> {
    return runFsTool(async () => {
      const file = this.workspace.resolve(input.path);
      const offset = input.offset ?? 1;
      const limit = input.limit ?? this.workspace.settings.maxReadLines;
      const maxBytes = this.workspace.settings.maxReadBytes;
      return this.cache.read({
        key: file.key,
        variant: `${offset}:${limit}`,
        load: () => readTextFile({ file, offset, limit, maxBytes }),
      });
    });
  }
}
