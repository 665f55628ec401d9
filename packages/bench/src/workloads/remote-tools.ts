import { fnTool, type Tool } from '@toolwaves/core';
import { z } from 'zod';

const remoteInput = z.object({
  server: z.string().describe('The MCP server'),
  item: z.string().describe('What to fetch or update on it'),
});
const scopeInput = z.object({
  path: z.string().describe('Folder, relative to the workspace root'),
});

/**
 * The remote tools of the `remote` workload, as a network MCP server, a sub-agent and a test
 * runner declare themselves (their latency is the bench's to inject; they answer at once):
 * - `remote_fetch`: concurrency-safe, a read of `mcp:<server>/<item>`;
 * - `remote_update`: concurrency-safe, a write of `mcp:<server>/<item>`;
 * - `sub_agent`: concurrency-safe, a read of the folder it explores;
 * - `run_tests`: concurrency-safe, a read of the folder it tests (it waits for edits below it).
 *
 * @example for (const tool of remoteTools({ keyOf: (path) => workspace.keyOf(path).key })) registry.add(tool);
 */
export function remoteTools(options: { keyOf: (path: string) => string | undefined }): Tool[] {
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
      concurrencySafe: ({ path }) => options.keyOf(path) !== undefined,
      access: ({ path }) => [{ key: options.keyOf(path)!, mode: 'read' }],
      execute: ({ path }) => `${name} ${path}: done`,
    });
  return [
    remote('remote_fetch', 'read', 'Fetch an item from a remote MCP server.'),
    remote('remote_update', 'write', 'Update an item on a remote MCP server.'),
    scoped('sub_agent', 'Ask a sub-agent to explore a folder.'),
    scoped('run_tests', 'Run the tests of a folder.'),
  ] as Tool[];
}
