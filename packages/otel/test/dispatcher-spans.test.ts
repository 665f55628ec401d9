import type { Tracer } from '@opentelemetry/api';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  abortableDelay,
  type Coordinator,
  fnTool,
  type ToolCall,
  ToolRegistry,
} from '@toolwaves/core';
import { Dispatcher, type DispatchMode } from '@toolwaves/executor-rx';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { openTelemetry } from '../src/index.js';
import {
  durationMs,
  histogramPoints,
  idOf,
  type OtelHarness,
  otelHarness,
  parentOf,
  useAsyncContext,
  useFakeClock,
  within,
} from './otel-harness.js';

// A Dispatcher with the instrumentation, in virtual time, in every mode. The turn: read a.txt,
// read b.txt, write a.txt, read a.txt — each tool takes 100 ms and starts a span of its own
// (`fs.<tool>`). By the rules the write waits for the first read, the last read for the write.

useAsyncContext();
useFakeClock();

const fileInput = z.object({ path: z.string() });

function fsRegistry(tracer: Tracer): ToolRegistry {
  const fileTool = (name: string, mode: 'read' | 'write') =>
    fnTool({
      name,
      description: `${mode === 'read' ? 'Read' : 'Write'} a file`,
      input: fileInput,
      concurrencySafe: true,
      access: ({ path }) => [{ key: `fs:/${path}`, mode }],
      execute: async ({ path }, context) => {
        const own = tracer.startSpan(`fs.${name}`);
        try {
          await abortableDelay(100, context.signal);
        } finally {
          own.end();
        }
        return `${name} ${path}`;
      },
    });
  return new ToolRegistry().add(fileTool('read_file', 'read')).add(fileTool('write_file', 'write'));
}

const calls: ToolCall[] = [
  { id: 'c0', name: 'read_file', input: { path: 'a.txt' } },
  { id: 'c1', name: 'read_file', input: { path: 'b.txt' } },
  { id: 'c2', name: 'write_file', input: { path: 'a.txt' } },
  { id: 'c3', name: 'read_file', input: { path: 'a.txt' } },
];

/** What each call waits for by the rules: the write for the first read, the last read for the write. */
const DEPENDENCIES = [[], [], ['c0'], ['c2']];
/** Sequential mode: each call for the one before it. */
const IN_ORDER = [[], ['c0'], ['c1'], ['c2']];

/** The call spans in model order, with their start relative to the dispatch's start (ms). */
function callSpans(otel: OtelHarness): { span: ReadableSpan; startMs: number }[] {
  const dispatch = otel.span('toolwaves.dispatch');
  const startOf = (span: ReadableSpan) => span.startTime[0] * 1000 + span.startTime[1] / 1e6;
  return otel
    .spans()
    .filter((span) => span.name.startsWith('execute_tool '))
    .sort(
      (a, b) =>
        Number(a.attributes['toolwaves.call.index']) - Number(b.attributes['toolwaves.call.index']),
    )
    .map((span) => ({ span, startMs: startOf(span) - startOf(dispatch) }));
}

/** What every mode shares: parentage, names, GenAI attributes, links to the calls waited for. */
function expectTurnTraced(otel: OtelHarness, waitedFor: readonly string[][] = DEPENDENCIES): void {
  const turn = otel.span('agent turn');
  const dispatch = otel.span('toolwaves.dispatch');
  expect(parentOf(dispatch)).toBe(idOf(turn));
  expect(dispatch.attributes['toolwaves.dispatch.call_count']).toBe(4);
  expect(dispatch.attributes['toolwaves.dispatch.outcome']).toBe('ok');
  expect(dispatch.status.code).toBe(SpanStatusCode.UNSET);
  const spans = callSpans(otel).map(({ span }) => span);
  expect(spans.map((span) => span.name)).toEqual([
    'execute_tool read_file',
    'execute_tool read_file',
    'execute_tool write_file',
    'execute_tool read_file',
  ]);
  for (const [index, span] of spans.entries()) {
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(parentOf(span)).toBe(idOf(dispatch));
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.call.id': calls[index]!.id,
      'gen_ai.tool.type': 'function',
      'toolwaves.call.attempt': 1,
      'toolwaves.call.outcome': 'ok',
    });
    expect(durationMs(span)).toBe(100);
  }
  expect(spans[0]!.attributes['gen_ai.tool.description']).toBe('Read a file');
  // The spans the tools started are children of their execute_tool spans.
  const own = otel.spans().filter((span) => span.name.startsWith('fs.'));
  expect(own).toHaveLength(4);
  expect(new Set(own.map(parentOf))).toEqual(new Set(spans.map(idOf)));
  // The calls each waited for: attribute, and links to their spans.
  expect(spans.map((span) => span.attributes['toolwaves.call.waited_for'])).toEqual(
    waitedFor.map((ids) => (ids.length === 0 ? undefined : ids)),
  );
  const spanOf = new Map(spans.map((span) => [span.attributes['gen_ai.tool.call.id'], idOf(span)]));
  expect(spans.map((span) => span.links.map((link) => link.context.spanId))).toEqual(
    waitedFor.map((ids) => ids.map((id) => spanOf.get(id))),
  );
  // Nothing from the inputs or outputs.
  expect(JSON.stringify(otel.spans().map((span) => span.attributes))).not.toContain('a.txt');
  expect(new Set(otel.spans().map((span) => span.spanContext().traceId)).size).toBe(1);
}

async function dispatchWithin(otel: OtelHarness, run: () => Promise<unknown>): Promise<void> {
  const turn = otel.tracer.startSpan('agent turn');
  const done = within(turn, run);
  await vi.advanceTimersByTimeAsync(1000);
  await done;
  turn.end();
}

// Waves run after one another: a call's span starts with its wave, when its tool may run.
describe.each<{ mode: DispatchMode; starts: number[]; waitedFor: string[][]; waves?: number }>([
  { mode: 'sequential', starts: [0, 100, 200, 300], waitedFor: IN_ORDER, waves: 4 },
  { mode: 'parallel', starts: [0, 0, 100, 200], waitedFor: DEPENDENCIES, waves: 3 },
  { mode: 'eager', starts: [0, 0, 100, 200], waitedFor: DEPENDENCIES },
])('dispatch in $mode mode', ({ mode, starts, waitedFor, waves }) => {
  it('a dispatch span under the caller, a span per call when it ran, waits and links', async () => {
    const otel = otelHarness();
    const dispatcher = new Dispatcher({
      registry: fsRegistry(otel.tracer),
      mode,
      instrumentation: openTelemetry(otel.providers),
    });
    await dispatchWithin(otel, () => dispatcher.dispatch(calls));

    expectTurnTraced(otel, waitedFor);
    const dispatch = otel.span('toolwaves.dispatch');
    expect(dispatch.attributes['toolwaves.dispatch.mode']).toBe(mode);
    expect(dispatch.attributes['toolwaves.dispatch.source']).toBe('batch');
    expect(dispatch.attributes['toolwaves.dispatch.waves']).toBe(waves);
    expect(dispatch.attributes['toolwaves.dispatch.planner']).toBe(
      mode === 'parallel' ? 'greedy' : undefined,
    );
    expect(callSpans(otel).map(({ startMs }) => startMs)).toEqual(starts);
    // Every call was ready at 0: it waited behind the calls before it until it started.
    expect(
      callSpans(otel).map(({ span }) => span.attributes['toolwaves.call.key_wait_ms']),
    ).toEqual(starts);
  });
});

/** Eager: each call waited from its arrival (0) until the calls it depends on had ended. */
function expectEagerWaits(otel: OtelHarness): void {
  expect(callSpans(otel).map(({ span }) => span.attributes['toolwaves.call.key_wait_ms'])).toEqual([
    0, 0, 100, 200,
  ]);
}

describe('a stream of calls and a turn', () => {
  it('dispatchStream: source stream, the calls as they arrive, the same spans and links', async () => {
    const otel = otelHarness();
    const dispatcher = new Dispatcher({
      registry: fsRegistry(otel.tracer),
      mode: 'eager',
      instrumentation: openTelemetry(otel.providers),
    });
    async function* written(): AsyncGenerator<ToolCall> {
      yield* calls;
    }
    await dispatchWithin(otel, () => dispatcher.dispatchStream(written()));

    expectTurnTraced(otel);
    const dispatch = otel.span('toolwaves.dispatch');
    expect(dispatch.attributes['toolwaves.dispatch.source']).toBe('stream');
    expect(dispatch.attributes['toolwaves.dispatch.mode']).toBe('eager');
    expect(callSpans(otel).map(({ startMs }) => startMs)).toEqual([0, 0, 100, 200]);
    expectEagerWaits(otel);
  });

  it("openTurn: the framework's own execute runs inside the call's span", async () => {
    const otel = otelHarness();
    const dispatcher = new Dispatcher({
      registry: fsRegistry(otel.tracer),
      mode: 'eager',
      instrumentation: openTelemetry(otel.providers),
    });
    await dispatchWithin(otel, async () => {
      const turn = dispatcher.openTurn();
      const results = calls.map((call) =>
        turn.run(call, async (_input, context) => {
          const own = otel.tracer.startSpan(`fs.framework_${call.name}`);
          await abortableDelay(100, context.signal);
          own.end();
          return 'done';
        }),
      );
      await turn.close();
      return Promise.all(results);
    });

    expectTurnTraced(otel);
    expect(otel.span('toolwaves.dispatch').attributes['toolwaves.dispatch.source']).toBe('turn');
    expect(callSpans(otel).map(({ startMs }) => startMs)).toEqual([0, 0, 100, 200]);
    expectEagerWaits(otel);
  });
});

describe('a fleet coordinator', () => {
  it('each call waits 30 ms for its grant: fleet wait, fencing token, a wait point of kind fleet', async () => {
    const otel = otelHarness();
    let tokens = 0;
    const coordinator: Coordinator = {
      acquire: async ({ signal }) => {
        tokens += 1;
        const fencingToken = tokens;
        await abortableDelay(30, signal);
        return { fencingToken, lost: new AbortController().signal, release: async () => {} };
      },
    };
    const dispatcher = new Dispatcher({
      registry: fsRegistry(otel.tracer),
      mode: 'eager',
      coordinator,
      instrumentation: openTelemetry(otel.providers),
    });
    await dispatchWithin(otel, () => dispatcher.dispatch(calls.slice(0, 2)));

    const spans = callSpans(otel);
    expect(
      spans.map(({ span, startMs }) => [
        startMs,
        span.attributes['toolwaves.call.fleet_wait_ms'],
        span.attributes['toolwaves.call.fencing_token'],
      ]),
    ).toEqual([
      [30, 30, 1],
      [30, 30, 2],
    ]);
    const waited = histogramPoints(await otel.metric('toolwaves.call.wait.duration'));
    expect(
      waited.map((point) => [
        point.attributes['toolwaves.wait.kind'],
        point.value.count,
        point.value.sum,
      ]),
    ).toEqual([
      ['keys', 2, 0],
      ['fleet', 2, 0.06],
    ]);
  });
});
