import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fnTool, type Tool } from '@toolwaves/core';
import { z } from 'zod';

const input = z.object({
  path: z.string().describe('Folder of the project to check, relative to the workspace root'),
});

/**
 * `run_check`: the demo's project check: every relative import of a `.ts` file resolves, and
 * the TODOs left are counted. Like a test runner or a shell command it is NOT concurrency-safe:
 * it runs alone, and nothing crosses it in the `ordered` planner.
 */
export function runCheckTool(options: { root: string }): Tool<z.infer<typeof input>> {
  const root = resolve(options.root);
  return fnTool({
    name: 'run_check',
    description:
      'Check the project: every relative import resolves, and count the TODOs left. Runs alone.',
    input,
    execute: async ({ path }) => {
      const folder = resolve(root, path);
      if (folder !== root && !folder.startsWith(root + sep)) {
        return { content: `path escapes the workspace: ${path}`, isError: true };
      }
      const files = await listFiles(folder);
      const broken: string[] = [];
      let todos = 0;
      for (const file of files) {
        const text = await readFile(file, 'utf8');
        todos += text.split('TODO').length - 1;
        if (!file.endsWith('.ts')) continue;
        for (const [, spec] of text.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
          const target = resolve(dirname(file), (spec ?? '').replace(/\.js$/, '.ts'));
          if (!files.includes(target)) broken.push(`${relative(root, file)} → ${spec}`);
        }
      }
      const summary = `${files.length} files, ${todos} TODO(s), ${broken.length} broken import(s)`;
      return broken.length === 0
        ? `check passed: ${summary}`
        : { content: `check failed: ${summary}\n${broken.join('\n')}`, isError: true };
    },
  });
}

async function listFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
