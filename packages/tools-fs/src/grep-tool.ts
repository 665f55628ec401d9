import { stat } from 'node:fs/promises';
import { ToolClass, type ToolContext, type ToolOutput, tool } from '@toolwaves/core';
import { inject } from 'inversify';
import { z } from 'zod';
import { compileGlob } from './compile-glob.js';
import { fsErrorFrom } from './fs-error-from.js';
import { FsToolsError } from './fs-tools-error.js';
import { FS_WORKSPACE } from './fs-workspace-token.js';
import { type FsAccess, pathAccess } from './path-access.js';
import { plural } from './plural.js';
import { readWholeText } from './read-whole-text.js';
import { runFsTool } from './run-fs-tool.js';
import { walkTree } from './walk-tree.js';
import type { ResolvedPath, Workspace } from './workspace.js';

/** Input of `grep`. */
export const grepInput = z.object({
  pattern: z
    .string()
    .describe(
      'JavaScript regular expression searched for in each line, e.g. "function\\s+\\w+" (no slashes, no flags).',
    ),
  path: z
    .string()
    .optional()
    .describe(
      'The folder (searched recursively) or file to search: relative to the workspace root, or absolute inside it. Default: the root.',
    ),
  glob: z
    .string()
    .optional()
    .describe(
      'Only search files matching this glob: without a "/" it matches file names at any depth ("*.ts"), with one it matches paths relative to `path` ("src/**/*.ts").',
    ),
  ignore_case: z.boolean().optional().describe('Match letters in either case. Default false.'),
});

/** Input of `grep`. */
export type GrepInput = z.infer<typeof grepInput>;

/** Longest line excerpt shown, in characters. */
const EXCERPT_CHARS = 300;
/** Files read at once. */
const READ_AHEAD = 16;

/**
 * `grep`: the lines matching a regular expression, as `path:line:text` (paths relative to the
 * workspace root, sorted by path then line), capped at `maxResults` lines with a note. A folder
 * is searched recursively without following symbolic links and, as with `glob`, without hidden
 * entries (search a hidden folder by giving it as `path`); binary files and files over
 * `maxFileBytes` are skipped and counted. Long lines are shown as an excerpt around the match.
 *
 * Declarations: concurrency-safe, a read on the searched path's canonical key.
 *
 * @example
 * ```ts
 * { name: 'grep', input: { pattern: 'TODO', glob: '*.ts' } }
 * // "src/a.ts:12:  // TODO: remove"
 * ```
 * @see fsToolsModule
 */
@tool({
  name: 'grep',
  description:
    'Search workspace files for a regular expression. Answers matching lines as path:line:text; narrow it with path and glob.',
  input: grepInput,
})
export class GrepTool extends ToolClass {
  constructor(@inject(FS_WORKSPACE) private readonly workspace: Workspace) {
    super();
  }

  isConcurrencySafe(input: GrepInput): boolean {
    return pathAccess(this.workspace, [{ path: input.path ?? '.', mode: 'read' }]) !== undefined;
  }

  access(input: GrepInput): readonly FsAccess[] {
    return pathAccess(this.workspace, [{ path: input.path ?? '.', mode: 'read' }]) ?? [];
  }

  execute(input: GrepInput, context?: ToolContext): Promise<ToolOutput> {
    return runFsTool(async () => {
      const regex = compileRegex(input.pattern, input.ignore_case === true);
      const target = this.workspace.resolve(input.path ?? '.');
      const { files, single } = await this.#files(target, input.glob, context?.signal);
      const { maxResults, maxFileBytes } = this.workspace.settings;
      const hits: string[] = [];
      let skipped = 0;
      let capped = false;
      for (let at = 0; at < files.length && !capped; at += READ_AHEAD) {
        context?.signal.throwIfAborted();
        const batch = files.slice(at, at + READ_AHEAD);
        const texts = await Promise.all(
          batch.map((file) =>
            readWholeText(file, { maxBytes: maxFileBytes }).then(
              (whole) => whole.text,
              (error: unknown) => {
                // A file met on the walk may be binary, oversized or gone: skip it. The one
                // file asked for by `path` answers its error.
                if (error instanceof FsToolsError && !single) return undefined;
                throw error;
              },
            ),
          ),
        );
        batch.forEach((file, index) => {
          const text = texts[index];
          if (text === undefined) {
            skipped += 1;
            return;
          }
          if (capped) return;
          const lines = text.split('\n');
          if (text.endsWith('\n')) lines.pop();
          for (let number = 1; number <= lines.length; number += 1) {
            const line = (lines[number - 1] as string).replace(/\r$/, '');
            const match = regex.exec(line);
            if (match === null) continue;
            if (hits.length === maxResults) {
              capped = true;
              return;
            }
            hits.push(`${file.display}:${number}:${excerpt(line, match.index)}`);
          }
        });
      }
      const notes: string[] = [];
      if (capped) {
        notes.push(`[stopped at ${maxResults} matching lines: narrow the pattern, path or glob]`);
      }
      if (skipped > 0) {
        notes.push(`[skipped ${plural(skipped, 'binary, oversized or unreadable file')}]`);
      }
      const body =
        hits.length > 0
          ? hits.join('\n')
          : `no matches for /${input.pattern}/ in ${target.display}`;
      return notes.length === 0 ? body : `${body}\n\n${notes.join('\n')}`;
    });
  }

  /** The files to search, sorted by path: the target itself, or the regular files below it. */
  async #files(
    target: ResolvedPath,
    glob: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ files: ResolvedPath[]; single: boolean }> {
    const info = await stat(target.absolute).catch((error: unknown) => {
      throw fsErrorFrom(error, target.display);
    });
    if (!info.isDirectory()) return { files: [target], single: true };
    const filter = compileGlob(
      glob === undefined ? '**' : glob.includes('/') ? glob : `**/${glob}`,
    );
    const files: ResolvedPath[] = [];
    for await (const entry of walkTree({
      base: target.absolute,
      descend: (folder) => filter.mayMatchBelow(folder),
      signal,
    })) {
      if (entry.kind === 'file' && filter.matches(entry.relative)) {
        files.push(this.workspace.at(entry.absolute));
      }
    }
    files.sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
    return { files, single: false };
  }
}

function compileRegex(pattern: string, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (cause) {
    throw new FsToolsError({
      code: 'invalid_pattern',
      message: `invalid regular expression \`${pattern}\`: ${(cause as Error).message}`,
      cause,
    });
  }
}

/** The line, or a window of it around the match when it is long. */
function excerpt(line: string, index: number): string {
  if (line.length <= EXCERPT_CHARS) return line;
  const start = Math.max(0, Math.min(index - 100, line.length - EXCERPT_CHARS));
  const end = start + EXCERPT_CHARS;
  return `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
}
