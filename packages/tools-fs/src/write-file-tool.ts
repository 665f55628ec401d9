import { lstat, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ToolClass, type ToolContext, type ToolOutput, tool } from '@toolwaves/core';
import { inject } from 'inversify';
import { z } from 'zod';
import { draftFile } from './atomic-write.js';
import { fencedWrite } from './fenced-write.js';
import { fsErrorFrom } from './fs-error-from.js';
import { FS_HOST_FENCE } from './fs-host-fence-token.js';
import { FS_READ_CACHE } from './fs-read-cache-token.js';
import { FsToolsError } from './fs-tools-error.js';
import { FS_WORKSPACE } from './fs-workspace-token.js';
import type { HostFence } from './host-fence.js';
import { type FsAccess, pathAccess } from './path-access.js';
import { plural } from './plural.js';
import type { ReadCache } from './read-cache.js';
import { runFsTool } from './run-fs-tool.js';
import type { Workspace } from './workspace.js';

/** Input of `write_file`. */
export const writeFileInput = z.object({
  path: z
    .string()
    .describe(
      'The file to create or replace: relative to the workspace root, or absolute inside it. Missing folders are created.',
    ),
  content: z.string().describe('The whole new content of the file.'),
});

/** Input of `write_file`. */
export type WriteFileInput = z.infer<typeof writeFileInput>;

/**
 * `write_file`: creates a file or replaces its whole content, creating missing folders. The write
 * is atomic (a temporary file in the same folder renamed over the target) and keeps the
 * permission bits of a replaced file. Through a symbolic link, the link's target is written.
 *
 * Declarations: concurrency-safe, a write on the file's canonical key (so it waits for, and is
 * waited for by, every call touching the file or a folder above it); idempotent: running it
 * again puts the same content in place, so a durable turn re-runs a call a crash cut off.
 *
 * @example
 * ```ts
 * { name: 'write_file', input: { path: 'src/new.ts', content: 'export {};\n' } }
 * // "wrote 1 line (11 bytes) to src/new.ts (new file)"
 * ```
 * @see fsToolsModule
 */
@tool({
  name: 'write_file',
  description:
    'Create a file in the workspace, or replace its whole content. Missing folders are created. Prefer edit_file to change part of a file.',
  input: writeFileInput,
})
export class WriteFileTool extends ToolClass {
  /**
   * A re-run writes the same whole content again. No call of the same turn that touches the
   * path runs between the two runs (it waits for this call's journaled end); a writer outside
   * the turn that got in between is overwritten, as by any write that lands after it.
   */
  readonly idempotent = true;

  constructor(
    @inject(FS_WORKSPACE) private readonly workspace: Workspace,
    @inject(FS_READ_CACHE) private readonly cache: ReadCache,
    @inject(FS_HOST_FENCE) private readonly fence: HostFence,
  ) {
    super();
  }

  isConcurrencySafe(input: WriteFileInput): boolean {
    return pathAccess(this.workspace, [{ path: input.path, mode: 'write' }]) !== undefined;
  }

  access(input: WriteFileInput): readonly FsAccess[] {
    return pathAccess(this.workspace, [{ path: input.path, mode: 'write' }]) ?? [];
  }

  execute(input: WriteFileInput, context: ToolContext): Promise<ToolOutput> {
    return runFsTool(async () => {
      const file = this.workspace.resolve(input.path);
      const write = fencedWrite(context, [file]);
      try {
        await this.fence.claim(write);
        const existing = await lstat(file.absolute).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return undefined;
          throw error;
        });
        if (existing !== undefined && !existing.isFile()) {
          throw new FsToolsError({
            code: 'not_a_file',
            message: `cannot write \`${file.display}\`: it is ${existing.isDirectory() ? 'a directory' : 'not a regular file'}`,
          });
        }
        await mkdir(dirname(file.absolute), { recursive: true });
        const draft = await draftFile({
          target: file.absolute,
          content: input.content,
          mode: existing === undefined ? undefined : existing.mode & 0o7777,
        });
        try {
          await this.fence.commit(write, () => draft.commit());
        } finally {
          await draft.discard();
        }
        const bytes = plural(Buffer.byteLength(input.content, 'utf8'), 'byte');
        const lines = plural(countLines(input.content), 'line');
        const what = existing === undefined ? 'new file' : 'replaced';
        return `wrote ${lines} (${bytes}) to ${file.display} (${what})`;
      } catch (error) {
        throw fsErrorFrom(error, file.display);
      } finally {
        this.cache.invalidate([file.key]);
      }
    });
  }
}

function countLines(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}
