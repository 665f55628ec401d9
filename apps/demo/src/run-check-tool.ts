import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { type ToolOutput, tool } from '@toolwaves/core';
import { FS_WORKSPACE, FsToolsError, type Workspace } from '@toolwaves/tools-fs';
import { inject } from 'inversify';
import { z } from 'zod';

const runCheckInput = z.object({
  path: z.string().describe('Folder of the project to check, relative to the workspace root'),
});

/**
 * `run_check`: the demo's project check: every relative import of a `.ts` file resolves, and
 * the TODOs left are counted. Like a test runner or a shell command it declares nothing, so it
 * is NOT concurrency-safe: it runs alone, and in the `ordered` planner nothing crosses it.
 */
@tool({
  name: 'run_check',
  description:
    'Check the project: every relative import resolves; count the TODOs left. Runs alone.',
  input: runCheckInput,
})
export class RunCheckTool {
  constructor(@inject(FS_WORKSPACE) private readonly workspace: Workspace) {}

  async execute(input: z.infer<typeof runCheckInput>): Promise<string | ToolOutput> {
    let folder: string;
    try {
      folder = this.workspace.resolve(input.path).absolute;
    } catch (error) {
      if (error instanceof FsToolsError) return { content: error.message, isError: true };
      throw error;
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
        if (!files.includes(target)) broken.push(`${relative(folder, file)} → ${spec}`);
      }
    }
    const summary = `${files.length} files, ${todos} TODO(s), ${broken.length} broken import(s)`;
    return broken.length === 0
      ? `check passed: ${summary}`
      : { content: `check failed: ${summary}\n${broken.join('\n')}`, isError: true };
  }
}

async function listFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
