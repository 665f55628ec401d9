import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { type ToolCall, ToolRegistry, type ToolResult } from '@toolwaves/core';
import { DispatchError, Dispatcher } from '@toolwaves/executor-rx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addMcpTools } from '../src/index.js';
import { connect, fsServer, type Handled, overlap, track, webServer } from './fixtures.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const call = (id: string, name: string, input: unknown): ToolCall => ({ id, name, input });

/** Dispatches in parallel and advances virtual time until the batch settles. */
async function dispatch(
  dispatcher: Dispatcher,
  calls: readonly ToolCall[],
  ms: number,
): Promise<ToolResult[]> {
  const done = track(dispatcher.dispatch(calls));
  await vi.advanceTimersByTimeAsync(ms);
  expect(done.status).toBe('resolved');
  return done.value!;
}

const handled = (log: readonly Handled[], key: string): Handled => {
  const entry = log.find((e) => `${e.tool}:${String(Object.values(e.args)[0])}` === key);
  expect(entry, key).toBeDefined();
  return entry!;
};

describe('MCP tools dispatched in parallel', () => {
  it('overlaps reads and other servers, serializes a server’s writes with its calls, answers in order', async () => {
    const log: Handled[] = [];
    const registry = new ToolRegistry();
    await addMcpTools({
      registry,
      client: await connect(fsServer(log)),
      server: 'fs',
      trust: 'annotations',
    });
    await addMcpTools({
      registry,
      client: await connect(webServer(log)),
      server: 'web',
      trust: 'annotations',
    });
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });

    const results = await dispatch(
      dispatcher,
      [
        call('c0', 'read_file', { path: 'a' }),
        call('c1', 'read_file', { path: 'b' }),
        call('c2', 'write_file', { path: 'c', text: 'x' }),
        call('c3', 'fetch', { url: 'https://example.com' }),
        call('c4', 'read_file', { path: 'd' }),
        call('c5', 'list_dir', { path: '.' }),
      ],
      1_000,
    );

    expect(results.map((r) => [r.toolCallId, r.content, r.isError])).toEqual([
      ['c0', 'contents of a', false],
      ['c1', 'contents of b', false],
      ['c2', 'wrote c', false],
      ['c3', 'page https://example.com', false],
      ['c4', 'contents of d', false],
      ['c5', 'entries of .', false],
    ]);
    const [readA, readB, write, fetch, readD, list] = [
      'read_file:a',
      'read_file:b',
      'write_file:c',
      'fetch:https://example.com',
      'read_file:d',
      'list_dir:.',
    ].map((key) => handled(log, key)) as [Handled, Handled, Handled, Handled, Handled, Handled];
    // reads of one server overlap each other and a call to another server
    expect(overlap(readA, readB)).toBe(true);
    expect(overlap(readA, fetch)).toBe(true);
    // a write of mcp:fs overlaps no other call to fs, before or after it
    for (const other of [readA, readB, readD, list]) {
      expect(overlap(write, other), `write_file vs ${other.tool}`).toBe(false);
    }
    for (const other of [readA, readB, readD, write]) {
      expect(overlap(list, other), `list_dir vs ${other.tool}`).toBe(false);
    }
    // the model's order is kept across the conflicts: a, b before the write, d after it
    expect(write.startedAt).toBeGreaterThanOrEqual(Math.max(readA.endedAt!, readB.endedAt!));
    expect(readD.startedAt).toBeGreaterThanOrEqual(write.endedAt!);
    expect(list.startedAt).toBeGreaterThanOrEqual(readD.endedAt!);
    // three 100 ms waves after the first: 0-100 (a, b, fetch), write, d, list
    expect(Math.max(...log.map((e) => e.endedAt!))).toBe(400);
  });

  it('lets writes to different paths overlap when an override keys them by path', async () => {
    const log: Handled[] = [];
    const registry = new ToolRegistry();
    await addMcpTools({
      registry,
      client: await connect(fsServer(log)),
      server: 'fs',
      trust: 'annotations',
      overrides: {
        write_file: { access: (input) => [{ key: `mcp:fs/${String(input.path)}`, mode: 'write' }] },
        read_file: { access: (input) => [{ key: `mcp:fs/${String(input.path)}`, mode: 'read' }] },
      },
    });
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });

    const results = await dispatch(
      dispatcher,
      [
        call('w1', 'write_file', { path: 'x', text: '1' }),
        call('w2', 'write_file', { path: 'y', text: '2' }),
        call('r1', 'read_file', { path: 'x' }),
        call('r2', 'read_file', { path: 'z' }),
        call('l', 'list_dir', { path: '.' }),
      ],
      1_000,
    );

    expect(results.map((r) => r.content)).toEqual([
      'wrote x',
      'wrote y',
      'contents of x',
      'contents of z',
      'entries of .',
    ]);
    const [writeX, writeY, readX, readZ, list] = [
      'write_file:x',
      'write_file:y',
      'read_file:x',
      'read_file:z',
      'list_dir:.',
    ].map((key) => handled(log, key)) as [Handled, Handled, Handled, Handled, Handled];
    expect(overlap(writeX, writeY)).toBe(true);
    expect(overlap(writeX, readZ)).toBe(true); // z is neither written path
    // the read of x waits for the write of x, which the model asked for first
    expect(overlap(readX, writeX)).toBe(false);
    expect(readX.startedAt).toBeGreaterThanOrEqual(writeX.endedAt!);
    // list_dir keeps its default write of mcp:fs, which overlaps every mcp:fs/... key
    for (const other of [writeX, writeY, readX, readZ]) expect(overlap(list, other)).toBe(false);
  });

  it('keeps to maxConcurrency across read-only calls', async () => {
    const log: Handled[] = [];
    const registry = new ToolRegistry();
    await addMcpTools({
      registry,
      client: await connect(fsServer(log)),
      server: 'fs',
      trust: 'annotations',
    });
    const dispatcher = new Dispatcher({ registry, mode: 'parallel', maxConcurrency: 2 });
    await dispatch(
      dispatcher,
      ['a', 'b', 'c', 'd', 'e'].map((path, i) => call(`c${i}`, 'read_file', { path })),
      1_000,
    );
    const live = (t: number) => log.filter((e) => e.startedAt <= t && t < e.endedAt!).length;
    expect([0, 100, 200].map(live)).toEqual([2, 2, 1]);
  });
});

describe('MCP answers and failures as results', () => {
  /** A low-level server whose one tool answers every call with a JSON-RPC error. */
  function brokenServer(): Server {
    const server = new Server(
      { name: 'broken', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: 'flaky',
          inputSchema: { type: 'object' as const },
          annotations: { readOnlyHint: true },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, () => {
      throw new McpError(ErrorCode.InternalError, 'backend unavailable');
    });
    return server;
  }

  it('maps text parts, isError, a throwing handler, a vanished tool and a protocol error, in call order', async () => {
    const log: Handled[] = [];
    const server = fsServer(log);
    const gone = server.registerTool('gone', { description: 'Soon gone' }, async () => ({
      content: [{ type: 'text', text: 'still here' }],
    }));
    const registry = new ToolRegistry();
    await addMcpTools({
      registry,
      client: await connect(server),
      server: 'fs',
      trust: 'annotations',
    });
    await addMcpTools({
      registry,
      client: await connect(brokenServer()),
      server: 'broken',
      trust: 'annotations',
    });
    // the server drops a tool after the client listed it
    gone.remove();
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });

    const results = await dispatch(
      dispatcher,
      [
        call('1', 'read_file', { path: 'a' }),
        call('2', 'shout', { text: 'hi' }),
        call('3', 'explode', {}),
        call('4', 'gone', {}),
        call('5', 'flaky', {}),
        call('6', 'read_file', ['not', 'an', 'object']),
        call('7', 'no_such_tool', {}),
      ],
      1_000,
    );

    expect(results.map((r) => r.toolCallId)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(results.map((r) => r.isError)).toEqual([false, true, true, true, true, true, true]);
    expect(results[0]!.content).toBe('contents of a');
    expect(results[1]!.content).toBe('cannot shout hi\ntry whispering');
    expect(results[2]!.content).toBe('disk on fire');
    expect(results[3]!.content).toMatch(/Tool gone not found/);
    expect(results[4]!.content).toMatch(
      /^Tool `flaky` failed: MCP server `broken` could not run `flaky`: MCP error -32603: .*backend unavailable$/,
    );
    expect(results[5]!.content).toContain('expected an object of arguments');
    expect(results[6]!.content).toMatch(/no_such_tool/);
    // only the valid call to an existing tool reached the server's handlers
    expect(log.map((e) => e.tool)).toEqual(['read_file']);
  });

  it('cancels the request on the server when the dispatch is cancelled', async () => {
    const log: Handled[] = [];
    const registry = new ToolRegistry();
    await addMcpTools({
      registry,
      client: await connect(fsServer(log)),
      server: 'fs',
      trust: 'annotations',
    });
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const controller = new AbortController();

    const done = track(
      dispatcher.dispatch(
        [
          call('1', 'read_file', { path: 'a', ms: 500 }),
          call('2', 'read_file', { path: 'b', ms: 500 }),
        ],
        { signal: controller.signal },
      ),
    );
    await vi.advanceTimersByTimeAsync(200);
    expect(log.map((e) => [e.startedAt, e.endedAt])).toEqual([
      [0, undefined],
      [0, undefined],
    ]);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);

    expect(done.status).toBe('rejected');
    expect(done.error).toBeInstanceOf(DispatchError);
    expect((done.error as DispatchError).code).toBe('cancelled');
    expect(log.map((e) => [e.cancelled, e.endedAt])).toEqual([
      [true, 200],
      [true, 200],
    ]);
  });
});
