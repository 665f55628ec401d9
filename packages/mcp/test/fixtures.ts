import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** One call a test server handled, in virtual time (`Date.now()` under fake timers). */
export interface Handled {
  readonly server: string;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly startedAt: number;
  endedAt: number | undefined;
  /** Whether the client cancelled the request while it ran. */
  cancelled: boolean;
}

/** Waits `ms` with `setTimeout` (fake timers drive it); rejects when the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        fail(signal.reason);
      },
      { once: true },
    );
  });
}

/** Connects a client to a server over the SDK's in-memory transport. */
export async function connect(server: McpServer | Server): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'toolwaves-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

/**
 * A filesystem-like MCP server whose handlers take `ms` (default 100) of virtual time each and
 * log when they ran: `read_file` (read-only), `write_file` and `list_dir` (no annotations:
 * mutating as far as toolwaves knows), `shout` (fails with `isError` and two text parts),
 * `explode` (its handler throws).
 */
export function fsServer(log: Handled[], name = 'fs'): McpServer {
  const server = new McpServer({ name, version: '1.0.0' });
  const timed =
    (tool: string, answer: (args: Record<string, unknown>) => string) =>
    async (args: Record<string, unknown>, extra: { signal: AbortSignal }) => {
      const entry: Handled = {
        server: name,
        tool,
        args,
        startedAt: Date.now(),
        endedAt: undefined,
        cancelled: false,
      };
      log.push(entry);
      try {
        await sleep(typeof args.ms === 'number' ? args.ms : 100, extra.signal);
      } catch (error) {
        entry.cancelled = true;
        throw error;
      } finally {
        entry.endedAt = Date.now();
      }
      return { content: [{ type: 'text' as const, text: answer(args) }] };
    };
  server.registerTool(
    'read_file',
    {
      description: 'Read a file',
      inputSchema: { path: z.string().describe('File path'), ms: z.number().optional() },
      annotations: { readOnlyHint: true },
    },
    timed('read_file', (args) => `contents of ${String(args.path)}`),
  );
  server.registerTool(
    'write_file',
    {
      description: 'Write a file',
      inputSchema: { path: z.string(), text: z.string(), ms: z.number().optional() },
      annotations: { readOnlyHint: false, destructiveHint: true },
    },
    timed('write_file', (args) => `wrote ${String(args.path)}`),
  );
  server.registerTool(
    'list_dir',
    { description: 'List a directory', inputSchema: { path: z.string() } },
    timed('list_dir', (args) => `entries of ${String(args.path)}`),
  );
  server.registerTool(
    'shout',
    {
      description: 'Always fails',
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({
      content: [
        { type: 'text' as const, text: `cannot shout ${text}` },
        { type: 'text' as const, text: 'try whispering' },
      ],
      isError: true,
    }),
  );
  server.registerTool(
    'explode',
    { description: 'Its handler throws', annotations: { readOnlyHint: true } },
    async () => {
      throw new Error('disk on fire');
    },
  );
  return server;
}

/** A second server with one read-only tool, `fetch`, taking `ms` (default 100). */
export function webServer(log: Handled[]): McpServer {
  const server = new McpServer({ name: 'web', version: '1.0.0' });
  server.registerTool(
    'fetch',
    {
      description: 'Fetch a URL',
      inputSchema: { url: z.string() },
      annotations: { readOnlyHint: true },
    },
    async (args, extra) => {
      const entry: Handled = {
        server: 'web',
        tool: 'fetch',
        args,
        startedAt: Date.now(),
        endedAt: undefined,
        cancelled: false,
      };
      log.push(entry);
      try {
        await sleep(100, extra.signal);
      } finally {
        entry.endedAt = Date.now();
      }
      return { content: [{ type: 'text' as const, text: `page ${args.url}` }] };
    },
  );
  return server;
}

/** Whether two handled calls ran at the same time for a while. */
export function overlap(a: Handled, b: Handled): boolean {
  return (
    a.startedAt < (b.endedAt ?? Number.POSITIVE_INFINITY) &&
    b.startedAt < (a.endedAt ?? Number.POSITIVE_INFINITY)
  );
}

/** A promise's state, readable synchronously after advancing fake time. */
export { type TrackedPromise as Tracked, trackPromise as track } from '@toolwaves/core/testing';
