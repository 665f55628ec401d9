import {
  MalformedArguments,
  type Tool,
  ToolRegistry,
  type ToolResult,
  toolJsonSchema,
} from '@toolwaves/core';
import { asSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromAiSdkToolCalls, toAiSdkToolMessage, toAiSdkTools } from '../src/index.js';

describe('toAiSdkTools', () => {
  const input = z.object({ path: z.string(), limit: z.number().int().default(10) });
  const read: Tool = { name: 'read', description: 'Read a file', input, execute: () => 'x' };
  const free: Tool = { name: 'free', description: 'Takes anything', execute: () => 'y' };
  const custom: Tool = {
    name: 'custom',
    description: 'A tool whose zod schema carries a JSON Schema, like an MCP tool',
    input: z
      .custom<Record<string, unknown>>(() => true)
      .meta({
        type: 'object',
        properties: { q: { type: 'string', minLength: 1 } },
        required: ['q'],
      }),
    execute: () => 'z',
  };

  it('gives each tool its description and JSON Schema, and nothing to execute', async () => {
    const tools = toAiSdkTools(new ToolRegistry().add(read).add(free).add(custom));
    expect(Object.keys(tools)).toEqual(['custom', 'free', 'read']);
    for (const tool of [read, free, custom]) {
      const set = tools[tool.name]!;
      expect(set.description).toBe(tool.description);
      expect(set.execute).toBeUndefined();
      expect(await asSchema(set.inputSchema).jsonSchema).toEqual(toolJsonSchema(tool));
    }
    expect(await asSchema(tools.custom!.inputSchema).jsonSchema).toEqual({
      type: 'object',
      properties: { q: { type: 'string', minLength: 1 } },
      required: ['q'],
    });
  });

  it('leaves validation to the dispatcher: the AI SDK accepts any input', async () => {
    const schema = asSchema(toAiSdkTools(new ToolRegistry().add(read)).read!.inputSchema);
    expect(schema.validate).toBeUndefined();
  });
});

describe('fromAiSdkToolCalls', () => {
  it('keeps order, skips provider-executed calls, turns unparsable arguments into MalformedArguments', () => {
    const calls = fromAiSdkToolCalls([
      { toolCallId: 'a', toolName: 'read', input: { path: 'x' } },
      { toolCallId: 'b', toolName: 'web_search', input: { q: 'x' }, providerExecuted: true },
      { toolCallId: 'c', toolName: 'read', input: '{"path": ', invalid: true },
      { toolCallId: 'd', toolName: 'nope', input: { any: 1 }, invalid: true },
      { toolCallId: 'e', toolName: 'read', input: 'plain text', invalid: false },
    ]);
    expect(calls.map((call) => call.id)).toEqual(['a', 'c', 'd', 'e']);
    expect(calls[0]).toEqual({ id: 'a', name: 'read', input: { path: 'x' } });
    expect(calls[1]!.input).toBeInstanceOf(MalformedArguments);
    expect((calls[1]!.input as MalformedArguments).raw).toBe('{"path": ');
    expect(calls[2]).toEqual({ id: 'd', name: 'nope', input: { any: 1 } });
    expect(calls[3]!.input).toBe('plain text');
  });
});

describe('toAiSdkToolMessage', () => {
  it('answers in the order given, errors as error-text', () => {
    const results: ToolResult[] = [
      { toolCallId: '2', toolName: 'b', content: 'fine', isError: false, durationMs: 5 },
      {
        toolCallId: '1',
        toolName: 'a',
        content: 'Tool `a` failed: no',
        isError: true,
        durationMs: 1,
      },
    ];
    expect(toAiSdkToolMessage(results)).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: '2',
          toolName: 'b',
          output: { type: 'text', value: 'fine' },
        },
        {
          type: 'tool-result',
          toolCallId: '1',
          toolName: 'a',
          output: { type: 'error-text', value: 'Tool `a` failed: no' },
        },
      ],
    });
  });
});
