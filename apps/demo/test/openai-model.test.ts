import { rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Dispatcher } from '@toolwaves/executor-rx';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgentLoop } from '../src/agent-loop.js';
import { demoRegistry } from '../src/demo-registry.js';
import { OpenAIModel } from '../src/openai-model.js';
import { prepareWorkspace } from '../src/sample-workspace.js';

type ChatRequest = {
  model: string;
  messages: {
    role: string;
    content?: string | null;
    tool_call_id?: string;
    tool_calls?: unknown[];
  }[];
  tools?: { type: string; function: { name: string; parameters: Record<string, unknown> } }[];
  parallel_tool_calls?: boolean;
};

/** A chat-completions server on loopback: first a turn of tool calls, then a final answer. */
async function chatServer(): Promise<{ url: string; requests: ChatRequest[]; server: Server }> {
  const requests: ChatRequest[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const request = JSON.parse(body) as ChatRequest;
    requests.push(request);
    const message =
      requests.length === 1
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_a',
                type: 'function',
                function: { name: 'read_file', arguments: '{"path":"README.md"}' },
              },
              {
                id: 'call_b',
                type: 'function',
                function: { name: 'read_file', arguments: '{"path": "src/pr' },
              },
              {
                id: 'call_c',
                type: 'function',
                function: { name: 'list_dir', arguments: '{"path":"src"}' },
              },
            ],
          }
        : { role: 'assistant', content: 'All done.' };
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: 0,
        model: request.model,
        choices: [
          { index: 0, message, finish_reason: requests.length === 1 ? 'tool_calls' : 'stop' },
        ],
      }),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests, server };
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
});

describe('OpenAIModel against a local chat-completions server', () => {
  it('sends the tools with parallel tool calls on, and answers every call in order', async () => {
    const { url, requests, server } = await chatServer();
    cleanup.push(() => new Promise((done) => server.close(() => done())));
    const workspace = await prepareWorkspace({});
    cleanup.push(() => rm(workspace.root, { recursive: true, force: true }));
    const registry = demoRegistry({ root: workspace.root, latency: 0 });
    const model = new OpenAIModel({
      apiKey: 'test-key',
      baseURL: url,
      model: 'local-model',
      registry,
      task: 'Look around.',
    });

    const session = await runAgentLoop({
      model,
      dispatcher: new Dispatcher({ registry, mode: 'parallel' }),
    });

    expect(session.finalText).toBe('All done.');
    expect(session.turns).toHaveLength(1);
    const first = requests[0];
    expect(first?.parallel_tool_calls).toBe(true);
    expect(first?.model).toBe('local-model');
    const readFile = first?.tools?.find((t) => t.function.name === 'read_file');
    expect(readFile?.type).toBe('function');
    expect(readFile?.function.parameters).toMatchObject({ type: 'object', required: ['path'] });
    expect(first?.tools?.map((t) => t.function.name)).toContain('run_check');

    const second = requests[1];
    const toolMessages = second?.messages.filter((m) => m.role === 'tool') ?? [];
    expect(toolMessages.map((m) => m.tool_call_id)).toEqual(['call_a', 'call_b', 'call_c']);
    expect(toolMessages[0]?.content).toContain('# shop-kit');
    expect(toolMessages[1]?.content).toMatch(
      /^Error: The arguments of the call to `read_file` were not valid JSON/,
    );
    expect(toolMessages[2]?.content).toContain('price.ts');
    const assistant = second?.messages.find((m) => m.role === 'assistant');
    expect(assistant?.tool_calls).toHaveLength(3);
  });
});
