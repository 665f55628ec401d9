import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { addMcpTools } from '@toolwaves/mcp';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openTelemetry } from '../src/index.js';
import { idOf, otelHarness, useAsyncContext } from './otel-harness.js';

// An MCP tool under an instrumented Dispatcher: the server's request carries the trace, with the
// call's execute_tool span as its parent, so the server's own spans would nest under the call.

useAsyncContext();

describe('MCP tools under the instrumentation', () => {
  it("the server sees each call's execute_tool span as the parent of its request", async () => {
    const seen = new Map<string, string | undefined>();
    const server = new McpServer({ name: 'notes', version: '1.0.0' });
    server.registerTool(
      'read_note',
      {
        description: 'Read a note',
        inputSchema: { id: z.string() },
        annotations: { readOnlyHint: true },
      },
      async ({ id }, extra) => {
        seen.set(id, extra._meta?.traceparent as string | undefined);
        return { content: [{ type: 'text' as const, text: `note ${id}` }] };
      },
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const registry = new ToolRegistry();
    await addMcpTools({ registry, client, server: 'notes' });

    const otel = otelHarness();
    const dispatcher = new Dispatcher({
      registry,
      mode: 'eager',
      instrumentation: openTelemetry(otel.providers),
    });
    const turn = otel.tracer.startSpan('agent turn');
    const results = await context.with(trace.setSpan(ROOT_CONTEXT, turn), () =>
      dispatcher.dispatch([
        { id: 'call_a', name: 'read_note', input: { id: 'a' } },
        { id: 'call_b', name: 'read_note', input: { id: 'b' } },
      ]),
    );
    turn.end();

    expect(results.map((result) => result.content)).toEqual(['note a', 'note b']);
    const traceId = turn.spanContext().traceId;
    const spanOf = (id: string) =>
      otel.spans().find((span) => span.attributes['gen_ai.tool.call.id'] === id)!;
    expect(seen.get('a')).toBe(`00-${traceId}-${idOf(spanOf('call_a'))}-01`);
    expect(seen.get('b')).toBe(`00-${traceId}-${idOf(spanOf('call_b'))}-01`);
  });
});
