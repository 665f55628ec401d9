import { readdir } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { fnTool, type Tool, ToolRegistry } from '@toolwaves/core';
import { FS_WORKSPACE, fsToolsModule } from '@toolwaves/tools-fs';
import { Container } from 'inversify';
import { z } from 'zod';

const remoteInput = z.object({
  server: z.string().describe('The MCP server'),
  item: z.string().describe('What to fetch or update on it'),
});
const scopeInput = z.object({
  path: z.string().describe('Folder, relative to the workspace root'),
});

/** The workloads' tools: the real fs tools, `run_check` and the `remote` stand-ins. */
export function benchRegistry(options: { root: string }): ToolRegistry {
  const root = resolve(options.root);
  const container = new Container();
  container.load(fsToolsModule({ root: options.root }));
  const workspace = container.get(FS_WORKSPACE);
  const keyOf = (path: string) => workspace.keyOf(path).key;
  const remote = (name: string, mode: 'read' | 'write', description: string) =>
    fnTool({
      name,
      description,
      input: remoteInput,
      concurrencySafe: true,
      access: ({ server, item }) => [{ key: `mcp:${server}/${item}`, mode }],
      execute: ({ server, item }) => `${name} ${server}/${item}: done`,
    });
  const scoped = (name: string, description: string) =>
    fnTool({
      name,
      description,
      input: scopeInput,
      concurrencySafe: ({ path }) => keyOf(path) !== undefined,
      access: ({ path }) => [{ key: keyOf(path)!, mode: 'read' }],
      execute: ({ path }) => `${name} ${path}: done`,
    });
  const runCheck = fnTool({
    name: 'run_check',
    description: 'Check a folder of the project (counts its files). Runs alone.',
    input: scopeInput,
    execute: async ({ path }) => {
      const folder = resolve(root, path);
      if (folder !== root && !folder.startsWith(root + sep)) {
        return { content: `path escapes the workspace: ${path}`, isError: true };
      }
      const entries = await readdir(folder, { recursive: true, withFileTypes: true });
      return `check passed: ${entries.filter((entry) => entry.isFile()).length} files`;
    },
  });
  const registry = ToolRegistry.fromContainer(container).add(runCheck);
  for (const tool of [
    remote('remote_fetch', 'read', 'Fetch an item from a remote MCP server.'),
    remote('remote_update', 'write', 'Update an item on a remote MCP server.'),
    scoped('sub_agent', 'Ask a sub-agent to explore a folder.'),
    scoped('run_tests', 'Run the tests of a folder.'),
  ] as Tool[])
    registry.add(tool);
  return registry;
}
