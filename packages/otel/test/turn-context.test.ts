import { type Span, type Tracer, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { abortableDelay, fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { openTelemetry } from '../src/index.js';
import {
  idOf,
  otelHarness,
  parentOf,
  useAsyncContext,
  useFakeClock,
  within,
} from './otel-harness.js';

// Two turns of one Dispatcher (cap 2), each opened inside its own parent span, four calls each:
// turn A reads four files (two wait for a slot), turn B writes one file four times (each waits
// for the write before it). A waiting call starts when another call ends, inside that call's
// completion; its span must still be a child of its own turn's span, and the tool must see its
// own span as the active one.

useAsyncContext();
useFakeClock();

/** The span each call's tool saw as active when it started, by call id. */
type ActiveSpans = Map<string, string | undefined>;

function fileTools(tracer: Tracer, active: ActiveSpans): ToolRegistry {
  const fileTool = (name: string, mode: 'read' | 'write') =>
    fnTool({
      name,
      description: `${mode === 'read' ? 'Read' : 'Write'} a file`,
      input: z.object({ path: z.string() }),
      concurrencySafe: true,
      access: ({ path }) => [{ key: `fs:/${path}`, mode }],
      execute: async ({ path }, context) => {
        active.set(context.toolCallId, trace.getActiveSpan()?.spanContext().spanId);
        const own = tracer.startSpan(`work ${context.toolCallId}`);
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

const TURN_A: ToolCall[] = ['w', 'x', 'y', 'z'].map((file, i) => ({
  id: `a${i}`,
  name: 'read_file',
  input: { path: `${file}.txt` },
}));
const TURN_B: ToolCall[] = [0, 1, 2, 3].map((i) => ({
  id: `b${i}`,
  name: 'write_file',
  input: { path: 'one.txt' },
}));

describe('the spans of waiting calls in turns opened from different parents', () => {
  it("each execute_tool span is a child of its own turn's dispatch span, the tool inside it", async () => {
    const otel = otelHarness();
    const active: ActiveSpans = new Map();
    const dispatcher = new Dispatcher({
      registry: fileTools(otel.tracer, active),
      mode: 'eager',
      maxConcurrency: 2,
      instrumentation: openTelemetry(otel.providers),
    });
    const runA = otel.tracer.startSpan('run A');
    const runB = otel.tracer.startSpan('run B');
    const turnA = within(runA, () => dispatcher.openTurn());
    const turnB = within(runB, () => dispatcher.openTurn());
    // the calls arrive interleaved, each handed over inside its own run's span
    const results = TURN_A.flatMap((call, i) => [
      within(runA, () => turnA.run(call)),
      within(runB, () => turnB.run(TURN_B[i]!)),
    ]);
    const closed = Promise.all([
      within(runA, () => turnA.close()),
      within(runB, () => turnB.close()),
    ]);
    await vi.advanceTimersByTimeAsync(1000);
    await Promise.all(results);
    await closed;
    runA.end();
    runB.end();

    const spans = otel.spans();
    const dispatches = spans.filter((span) => span.name === 'toolwaves.dispatch');
    const dispatchUnder = (run: Span): ReadableSpan => {
      const found = dispatches.filter((span) => parentOf(span) === run.spanContext().spanId);
      expect(found).toHaveLength(1);
      return found[0]!;
    };
    const turnSpan = { a: idOf(dispatchUnder(runA)), b: idOf(dispatchUnder(runB)) };
    const callSpans = spans.filter((span) => span.name.startsWith('execute_tool '));
    expect(callSpans).toHaveLength(8);
    const callSpanOf = new Map(
      callSpans.map((span) => [String(span.attributes['gen_ai.tool.call.id']), span]),
    );
    for (const call of [...TURN_A, ...TURN_B]) {
      const span = callSpanOf.get(call.id);
      expect(parentOf(span!)).toBe(call.id.startsWith('a') ? turnSpan.a : turnSpan.b);
      expect(active.get(call.id)).toBe(idOf(span!));
      const work = spans.find((each) => each.name === `work ${call.id}`);
      expect(parentOf(work!)).toBe(idOf(span!));
    }
    // the calls did wait (ms after the first start): turn A's last two for a slot, each of
    // turn B's for the write before it
    const startMs = (span: ReadableSpan) => span.startTime[0] * 1000 + span.startTime[1] / 1e6;
    const first = Math.min(...callSpans.map(startMs));
    const startsOf = (turn: readonly ToolCall[]) =>
      turn.map((call) => startMs(callSpanOf.get(call.id)!) - first);
    expect(startsOf(TURN_A)).toEqual([0, 0, 100, 100]);
    expect(startsOf(TURN_B)).toEqual([0, 100, 200, 300]);
  });
});
