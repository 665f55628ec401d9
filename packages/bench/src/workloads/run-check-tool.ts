import { readdir } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { fnTool, type Tool } from '@toolwaves/core';
import { z } from 'zod';

const runCheckInput = z.object({
  path: z.string().describe('Folder to check, relative to the workspace root'),
});

/** Input of {@link runCheckTool}. */
export type RunCheckInput = z.infer<typeof runCheckInput>;

/**
 * `run_check`: the bench's stand-in for a shell command (a linter, a test file): it counts the
 * files under a folder of the workspace. Like any shell command it is NOT concurrency-safe — it
 * declares nothing —, so every planner runs it alone, and `ordered` lets nothing cross it.
 *
 * @example new ToolRegistry().add(runCheckTool({ root }));
 * @see benchRegistry
 */
export function runCheckTool(options: { root: string }): Tool<RunCheckInput> {
  const root = resolve(options.root);
  return fnTool({
    name: 'run_check',
    description: 'Check a folder of the project (counts its files). Runs alone.',
    input: runCheckInput,
    execute: async ({ path }) => {
      const folder = resolve(root, path);
      if (folder !== root && !folder.startsWith(root + sep)) {
        return { content: `path escapes the workspace: ${path}`, isError: true };
      }
      const entries = await readdir(folder, { recursive: true, withFileTypes: true });
      return `check passed: ${entries.filter((entry) => entry.isFile()).length} files`;
    },
  });
}
