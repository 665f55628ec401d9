import { rm } from 'node:fs/promises';
import type { ToolCall } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgentLoop } from '../src/agent-loop.js';
import { demoRegistry } from '../src/demo-registry.js';
import { OpenAIModel } from '../src/openai-model.js';
import { prepareWorkspace } from '../src/sample-workspace.js';
import { callPiece, chunk, fakeChatServer, type ScriptedReply } from './fake-chat-server.js';

/**
 * A turn of three calls (the second with broken JSON), then a final answer. With `hold`, the
 * server sends the text, call_a whole and the start of call_b, then holds the turn open.
 */
const replies = (hold: boolean): ScriptedReply[] => [
  {
    chunks: [
      chunk({ role: 'assistant', content: 'Looking around.' }),
      callPiece(0, { id: 'call_a', name: 'read_file', arguments: '{"path":' }),
      callPiece(0, { arguments: '"README.md"}' }),
      callPiece(1, { id: 'call_b', name: 'read_file', arguments: '{"path": "src/pr' }),
      callPiece(2, { id: 'call_c', name: 'list_dir', arguments: '{"path":"src"}' }),
      chunk({}, 'tool_calls'),
    ],
    ...(hold ? { holdAfter: 4 } : {}),
  },
  { chunks: [chunk({ role: 'assistant', content: 'All done.' }), chunk({}, 'stop')] },
];

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
});

async function setUp(options: { hold: boolean }) {
  const server = await fakeChatServer(replies(options.hold));
  cleanup.push(() => server.close());
  const workspace = await prepareWorkspace({});
  cleanup.push(() => rm(workspace.root, { recursive: true, force: true }));
  const registry = demoRegistry({ root: workspace.root, latency: 0 });
  const model = new OpenAIModel({
    apiKey: 'test-key',
    baseURL: server.url,
    model: 'local-model',
    registry,
    task: 'Look around.',
  });
  return { server, registry, model };
}

describe('OpenAIModel against a local streaming chat-completions server', () => {
  it('hands on a call the moment it is complete, while the server still holds the turn', async () => {
    const { server, model } = await setUp({ hold: true });
    const turn = await model.next([]);
    const reader = turn.calls[Symbol.asyncIterator]();
    const first = await reader.next();
    expect(first.value).toEqual({ id: 'call_a', name: 'read_file', input: { path: 'README.md' } });
    expect(turn.writing.text).toBe('Looking around.');
    expect(turn.writing.firstCallTokenAt).toBeDefined();
    expect(turn.writing.endedAt).toBeUndefined();
    server.release();
    const rest: ToolCall[] = [];
    for (let next = await reader.next(); next.done !== true; next = await reader.next())
      rest.push(next.value);
    expect(rest.map((call) => call.id)).toEqual(['call_b', 'call_c']);
    expect(turn.writing.endedAt).toBeDefined();
  });

  it('streams with the tools and parallel tool calls on, and answers every call in order', async () => {
    const { server, registry, model } = await setUp({ hold: false });

    const session = await runAgentLoop({
      model,
      dispatcher: new Dispatcher({ registry, mode: 'parallel' }),
    });

    expect(session.finalText).toBe('All done.');
    expect(session.turns).toHaveLength(1);
    const first = server.requests[0];
    expect(first?.stream).toBe(true);
    expect(first?.parallel_tool_calls).toBe(true);
    expect(first?.model).toBe('local-model');
    const readFile = first?.tools?.find((t) => t.function.name === 'read_file');
    expect(readFile?.type).toBe('function');
    expect(readFile?.function.parameters).toMatchObject({ type: 'object', required: ['path'] });
    expect(first?.tools?.map((t) => t.function.name)).toContain('run_check');

    const second = server.requests[1];
    const toolMessages = second?.messages.filter((m) => m.role === 'tool') ?? [];
    expect(toolMessages.map((m) => m.tool_call_id)).toEqual(['call_a', 'call_b', 'call_c']);
    expect(toolMessages[0]?.content).toContain('# shop-kit');
    expect(toolMessages[1]?.content).toMatch(
      /^Error: The arguments of the call to `read_file` were not valid JSON/,
    );
    expect(toolMessages[2]?.content).toContain('price.ts');
    const assistant = second?.messages.find((m) => m.role === 'assistant');
    expect(assistant?.content).toBe('Looking around.');
    expect(assistant?.tool_calls?.map((call) => call.function.arguments)).toEqual([
      '{"path":"README.md"}',
      '{"path": "src/pr',
      '{"path":"src"}',
    ]);
  });
});
