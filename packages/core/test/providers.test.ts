import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  fnTool,
  fromAnthropicContent,
  fromOpenAIToolCalls,
  MalformedArguments,
  ToolRegistry,
  type ToolResult,
  toAnthropicToolResultMessage,
  toAnthropicTools,
  toOpenAIToolMessages,
  toOpenAITools,
} from '../src/index.js';
import { validateInput } from '../src/internal/index.js';

const registry = new ToolRegistry()
  .add(
    fnTool({
      name: 'read_file',
      description: 'Read a file',
      input: z.object({
        path: z.string().describe('file path'),
        limit: z.number().int().default(100),
      }),
      concurrencySafe: true,
      execute: () => '',
    }),
  )
  .add(fnTool({ name: 'clock', description: 'Current time', execute: () => '' }));

const result = (id: string, content: string, isError = false): ToolResult => ({
  toolCallId: id,
  toolName: 'read_file',
  content,
  isError,
  durationMs: 1,
});

describe('OpenAI chat completions', () => {
  it('reads tool calls in order, parsing their JSON arguments', () => {
    const calls = fromOpenAIToolCalls([
      {
        id: 'call_1',
        type: 'function',
        function: { name: 'read_file', arguments: '{"path":"a.ts"}' },
      },
      { id: 'call_2', type: 'function', function: { name: 'clock', arguments: '' } },
    ]);
    expect(calls).toEqual([
      { id: 'call_1', name: 'read_file', input: { path: 'a.ts' } },
      { id: 'call_2', name: 'clock', input: {} },
    ]);
  });

  it('turns malformed JSON into an input the call is answered about', () => {
    const [call] = fromOpenAIToolCalls([
      { id: 'call_9', function: { name: 'read_file', arguments: '{"path": "a.ts"' } },
    ]);
    expect(call?.input).toBeInstanceOf(MalformedArguments);
    const tool = registry.get('read_file');
    if (tool === undefined) throw new Error('read_file is registered above');
    const validation = validateInput(tool, call?.input);
    expect(validation.ok).toBe(false);
    expect(!validation.ok && validation.message).toMatch(
      /^The arguments of the call to `read_file` were not valid JSON \(.+\): \{"path": "a.ts"$/,
    );
    expect(registry.toPlanNodes(call ? [call] : [])).toEqual([{ index: 0, parallelizable: false }]);
  });

  it('writes one tool message per result, in order, flagging errors', () => {
    expect(
      toOpenAIToolMessages([result('b', 'second'), result('a', 'no such file', true)]),
    ).toEqual([
      { role: 'tool', tool_call_id: 'b', content: 'second' },
      { role: 'tool', tool_call_id: 'a', content: 'Error: no such file' },
    ]);
  });

  it('round-trips: every call id comes back in the order it went out', () => {
    const calls = fromOpenAIToolCalls(
      ['x', 'y', 'z'].map((id) => ({ id, function: { name: 'clock', arguments: '{}' } })),
    );
    const messages = toOpenAIToolMessages(calls.map((call) => result(call.id, 'ok')));
    expect(messages.map((m) => m.tool_call_id)).toEqual(['x', 'y', 'z']);
  });

  it('describes the tools as JSON Schema function tools', () => {
    const tools = toOpenAITools(registry);
    expect(tools.map((t) => t.function.name)).toEqual(['clock', 'read_file']);
    expect(tools[1]).toEqual({
      type: 'function',
      function: {
        name: 'read_file',
        description: 'Read a file',
        parameters: {
          type: 'object',
          properties: {
            path: { type: 'string', description: 'file path' },
            limit: {
              type: 'integer',
              default: 100,
              minimum: Number.MIN_SAFE_INTEGER,
              maximum: Number.MAX_SAFE_INTEGER,
            },
          },
          required: ['path'],
        },
      },
    });
    expect(tools[0]?.function.parameters).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: true,
    });
  });
});

describe('Anthropic messages', () => {
  it('reads tool_use blocks in order, skipping text', () => {
    const calls = fromAnthropicContent([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a' } },
      { type: 'tool_use', id: 'toolu_2', name: 'clock', input: {} },
    ]);
    expect(calls).toEqual([
      { id: 'toolu_1', name: 'read_file', input: { path: 'a' } },
      { id: 'toolu_2', name: 'clock', input: {} },
    ]);
  });

  it('answers with one user message of tool_result blocks, in order, with is_error', () => {
    expect(
      toAnthropicToolResultMessage([result('toolu_1', 'text'), result('toolu_2', 'bad', true)]),
    ).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'text', is_error: false },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: 'bad', is_error: true },
      ],
    });
  });

  it('describes the tools with input_schema', () => {
    const [clock, read] = toAnthropicTools(registry);
    expect(clock).toEqual({
      name: 'clock',
      description: 'Current time',
      input_schema: { type: 'object', properties: {}, additionalProperties: true },
    });
    expect(read?.input_schema).toMatchObject({ type: 'object', required: ['path'] });
  });
});

describe('toolJsonSchema', () => {
  it("prefers a tool's own JSON Schema, without its dialect", () => {
    const own = new ToolRegistry().add({
      name: 'remote',
      description: 'from a server',
      jsonSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { q: { type: 'string' } },
      },
      input: z.object({ ignored: z.number() }),
      execute: () => '',
    });
    expect(toOpenAITools(own)[0]?.function.parameters).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
    });
  });
});
