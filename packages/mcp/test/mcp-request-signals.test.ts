import { getEventListeners } from 'node:events';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '@toolwaves/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { McpPathKeys, mcpTools } from '../src/index.js';
import { connect, fsServer, type Handled, track } from './fixtures.js';

// The MCP SDK adds an `abort` listener to the signal of every request and never removes it.
// A signal that outlives one request (a session's, shared by many calls; a listing's, across
// its pages) must not collect them: past ten, Node warns MaxListenersExceededWarning.

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const abortListeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

describe('MCP requests and the signal they are given', () => {
  it('17 calls sharing one signal leave no listener on it, and an abort still cancels them on the server', async () => {
    const log: Handled[] = [];
    const tools = await mcpTools({ client: await connect(fsServer(log)), server: 'fs' });
    const readFile = tools.find((tool) => tool.name === 'read_file')!;
    const session = new AbortController();
    const context = (i: number): ToolContext => ({
      toolCallId: `call-${i}`,
      attempt: 1,
      signal: session.signal,
    });
    const read = async (i: number) => readFile.execute({ path: `f${i}`, ms: 100 }, context(i));

    const first = Array.from({ length: 17 }, (_, i) => track(read(i)));
    await vi.advanceTimersByTimeAsync(50);
    expect(log).toHaveLength(17);
    // While they run, the shared signal carries one listener for all of them.
    expect(abortListeners(session.signal)).toBe(1);
    await vi.advanceTimersByTimeAsync(50);
    expect(first.map((call) => call.status)).toEqual(Array(17).fill('resolved'));
    expect(abortListeners(session.signal)).toBe(0);

    // The link lasts as long as the request: aborting the shared signal cancels what runs.
    const second = Array.from({ length: 17 }, (_, i) => track(read(17 + i)));
    await vi.advanceTimersByTimeAsync(50);
    session.abort(new Error('user pressed Ctrl-C'));
    await vi.advanceTimersByTimeAsync(0);
    expect(second.map((call) => call.status)).toEqual(Array(17).fill('rejected'));
    expect(log.slice(17).map((entry) => entry.cancelled)).toEqual(Array(17).fill(true));
    expect(abortListeners(session.signal)).toBe(0);

    // Asked with the signal already aborted: rejected with its reason, never sent.
    await expect(read(34)).rejects.toThrow('user pressed Ctrl-C');
    expect(log).toHaveLength(34);
    expect(abortListeners(session.signal)).toBe(0);
  });

  it('listing 12 pages of tools and the allowed directories with one signal leaves no listener on it', async () => {
    const server = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, (request) => {
      const page = Number(request.params?.cursor ?? '0');
      return {
        tools: [{ name: `tool_${page}`, inputSchema: { type: 'object' as const } }],
        ...(page < 11 ? { nextCursor: String(page + 1) } : {}),
      };
    });
    const client = await connect(server);
    const signal = new AbortController().signal;

    const tools = await mcpTools({ client, server: 'paged', signal });
    expect(tools).toHaveLength(12);
    await McpPathKeys.fromServer({ client, server: 'paged', signal });
    expect(abortListeners(signal)).toBe(0);
  });
});
