import { stat } from 'node:fs/promises';
import { ToolClass, type ToolContext, type ToolOutput, tool } from '@toolwaves/core';
import { inject } from 'inversify';
import { z } from 'zod';
import { compileGlob } from './compile-glob.js';
import { fsErrorFrom } from './fs-error-from.js';
import { FsToolsError } from './fs-tools-error.js';
import { FS_WORKSPACE } from './fs-workspace-token.js';
import { type FsAccess, pathAccess } from './path-access.js';
import { runFsTool } from './run-fs-tool.js';
import { walkTree } from './walk-tree.js';
import type { Workspace } from './workspace.js';

/** Input of `glob`. */
export const globInput = z.object({
  pattern: z
    .string()
    .describe(
      'Glob pattern relative to `path`, e.g. "**/*.ts" or "src/{a,b}/*.json". Supports *, ?, **, [a-z], [!a] and {a,b}; * and ** do not match names starting with a dot unless the pattern spells the dot.',
    ),
  path: z
    .string()
    .optional()
    .describe(
      'The folder to search: relative to the workspace root, or absolute inside it. Default: the root.',
    ),
});

/** Input of `glob`. */
export type GlobInput = z.infer<typeof globInput>;

/**
 * `glob`: the files (anything but a folder; a symbolic link counts as a file and is never walked
 * into) below a folder whose path matches a pattern (see `compileGlob`), as paths relative to the
 * workspace root, sorted, capped at `maxResults` with a note. Only folders the pattern can reach
 * are walked.
 *
 * Declarations: concurrency-safe, a read on the searched folder's canonical key.
 *
 * @example
 * ```ts
 * { name: 'glob', input: { pattern: '**\/*.test.ts', path: 'packages' } }
 * // "packages/a/test/x.test.ts\npackages/b/test/y.test.ts"
 * ```
 * @see fsToolsModule
 */
@tool({
  name: 'glob',
  description:
    'Find workspace files by glob pattern (e.g. "**/*.ts"). Answers matching paths relative to the workspace root, sorted.',
  input: globInput,
})
export class GlobTool extends ToolClass {
  constructor(@inject(FS_WORKSPACE) private readonly workspace: Workspace) {
    super();
  }

  isConcurrencySafe(input: GlobInput): boolean {
    return pathAccess(this.workspace, [{ path: input.path ?? '.', mode: 'read' }]) !== undefined;
  }

  access(input: GlobInput): readonly FsAccess[] {
    return pathAccess(this.workspace, [{ path: input.path ?? '.', mode: 'read' }]) ?? [];
  }

  execute(input: GlobInput, context?: ToolContext): Promise<ToolOutput> {
    return runFsTool(async () => {
      const matcher = compileGlob(input.pattern);
      const base = this.workspace.resolve(input.path ?? '.');
      const info = await stat(base.absolute).catch((error: unknown) => {
        throw fsErrorFrom(error, base.display);
      });
      if (!info.isDirectory()) {
        throw new FsToolsError({
          code: 'not_a_directory',
          message: `not a directory: \`${base.display}\` (glob searches a folder)`,
        });
      }
      const found: string[] = [];
      for await (const entry of walkTree({
        base: base.absolute,
        descend: (folder) => matcher.mayMatchBelow(folder),
        signal: context?.signal,
      })) {
        if (entry.kind !== 'directory' && matcher.matches(entry.relative)) {
          found.push(this.workspace.at(entry.absolute).display);
        }
      }
      if (found.length === 0) return `no files match \`${input.pattern}\` in ${base.display}`;
      found.sort();
      const { maxResults } = this.workspace.settings;
      if (found.length <= maxResults) return found.join('\n');
      const shown = found.slice(0, maxResults);
      return `${shown.join('\n')}\n\n[showing the first ${maxResults} of ${found.length} matches]`;
    });
  }
}
