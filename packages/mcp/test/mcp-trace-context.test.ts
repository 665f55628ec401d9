import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { context, createTraceState, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpPathKeys, mcpTools } from '../src/index.js';
import { connect } from './fixtures.js';

// Every MCP request carries the caller's W3C trace context in `params._meta` (MCP 2026-07-28),
// so a traced server continues the trace. The server here is the SDK's own, over its in-memory
// transport, and notes the `_meta` of every request it handles.

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => {
  context.disable();
});

type Meta = Record<string, unknown> | undefined;

/** The `ping` tool of a server that notes the `_meta` of each call it handles in `seen`. */
async function pingTool(seen: Meta[]) {
  const server = new McpServer({ name: 'traced', version: '1.0.0' });
  server.registerTool('ping', { description: 'Ping' }, async (extra) => {
    seen.push(extra._meta);
    return { content: [{ type: 'text' as const, text: 'pong' }] };
  });
  const [ping] = await mcpTools({ client: await connect(server), server: 'traced' });
  return ping!;
}

function tracer() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer('test'), exporter };
}

describe('W3C trace context in the _meta of MCP requests', () => {
  it('tools/list and tools/call under a span: the server sees the trace id and the span as parent', async () => {
    const seen: { method: string; meta: Meta }[] = [];
    const server = new McpServer({ name: 'traced', version: '1.0.0' });
    server.registerTool(
      'echo',
      {
        description: 'Echo',
        inputSchema: { text: z.string() },
        annotations: { readOnlyHint: true },
      },
      async ({ text }, extra) => {
        seen.push({ method: 'echo', meta: extra._meta });
        return { content: [{ type: 'text' as const, text }] };
      },
    );
    server.registerTool('list_allowed_directories', { description: 'Roots' }, async (extra) => {
      seen.push({ method: 'list_allowed_directories', meta: extra._meta });
      return { content: [{ type: 'text' as const, text: '/srv' }] };
    });
    const client = await connect(server);
    const { tracer: agent } = tracer();
    const span = agent.startSpan('agent turn');
    const { traceId, spanId } = span.spanContext();

    const answer = await context.with(trace.setSpan(ROOT_CONTEXT, span), async () => {
      const tools = await mcpTools({ client, server: 'traced' });
      await McpPathKeys.fromServer({ client, server: 'traced' });
      const echo = tools.find((tool) => tool.name === 'echo')!;
      return echo.execute(
        { text: 'hi' },
        { toolCallId: 'call_1', attempt: 1, signal: new AbortController().signal },
      );
    });
    span.end();

    expect(answer).toEqual({ content: 'hi', isError: false });
    expect(seen.map((entry) => entry.method)).toEqual(['list_allowed_directories', 'echo']);
    for (const { meta } of seen) {
      expect(meta?.traceparent).toBe(`00-${traceId}-${spanId}-01`);
      expect(meta).not.toHaveProperty('tracestate');
    }
  });

  it('every page of tools/list carries it', async () => {
    const seen: Meta[] = [];
    const server = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, (request) => {
      seen.push(request.params?._meta);
      const page = Number(request.params?.cursor ?? '0');
      return {
        tools: [{ name: `tool_${page}`, inputSchema: { type: 'object' as const } }],
        ...(page < 2 ? { nextCursor: String(page + 1) } : {}),
      };
    });
    const client = await connect(server);
    const span = tracer().tracer.startSpan('agent turn');
    const tools = await context.with(trace.setSpan(ROOT_CONTEXT, span), () =>
      mcpTools({ client, server: 'paged' }),
    );
    span.end();
    expect(tools).toHaveLength(3);
    const { traceId, spanId } = span.spanContext();
    expect(seen.map((meta) => meta?.traceparent)).toEqual(
      Array(3).fill(`00-${traceId}-${spanId}-01`),
    );
  });

  it('carries tracestate when the span context has one, and the sampled flag as it is', async () => {
    const seen: Meta[] = [];
    const ping = await pingTool(seen);
    const remote = trace.wrapSpanContext({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 0,
      traceState: createTraceState('rojo=00f067aa0ba902b7,congo=t61rcWkgMzE'),
    });
    const signal = new AbortController().signal;
    await context.with(trace.setSpan(ROOT_CONTEXT, remote), () =>
      ping.execute({}, { toolCallId: 'call_1', attempt: 1, signal }),
    );
    expect(seen).toEqual([
      {
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00',
        tracestate: 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE',
      },
    ]);
  });

  it('sends no trace context when no span is active', async () => {
    const seen: Meta[] = [];
    const ping = await pingTool(seen);
    await ping.execute(
      {},
      { toolCallId: 'call_1', attempt: 1, signal: new AbortController().signal },
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]?.traceparent).toBeUndefined();
  });
});
