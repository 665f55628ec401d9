import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { abortableDelay, fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { Dispatcher, type DispatchMode } from '@toolwaves/executor-rx';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { openTelemetry } from '../src/index.js';
import {
  durationMs,
  histogramPoints,
  idOf,
  numberPoints,
  type OtelHarness,
  otelHarness,
  useFakeClock,
} from './otel-harness.js';

// Recovery, time limits and cancellation through a Dispatcher, in virtual time: what each
// attempt's span says, and that the metrics agree with the spans.

useFakeClock();

const keyed = z.object({ key: z.string(), ms: z.number() });

/** `work` sleeps `ms` on key `key` (a write); `flaky` throws on its first attempt, then answers. */
function registry(): ToolRegistry {
  let flakyRuns = 0;
  return new ToolRegistry()
    .add(
      fnTool({
        name: 'work',
        description: 'Works on a key',
        input: keyed,
        concurrencySafe: true,
        resourceKey: ({ key }) => key,
        execute: async ({ ms }, context) => {
          await abortableDelay(ms, context.signal);
          return 'done';
        },
      }),
    )
    .add(
      fnTool({
        name: 'flaky',
        description: 'Fails once',
        concurrencySafe: true,
        execute: async () => {
          flakyRuns += 1;
          if (flakyRuns === 1) throw new Error('connection reset');
          return 'fine';
        },
      }),
    );
}

const work = (id: string, key: string, ms: number): ToolCall => ({
  id,
  name: 'work',
  input: { key, ms },
});

const spansOf = (otel: OtelHarness, id: string): ReadableSpan[] =>
  otel.spans().filter((span) => span.attributes['gen_ai.tool.call.id'] === id);

async function expectMetricsMatchSpans(otel: OtelHarness): Promise<void> {
  const calls = otel.spans().filter((span) => span.name.startsWith('execute_tool '));
  const executed = histogramPoints(await otel.metric('gen_ai.execute_tool.duration'));
  expect(executed.reduce((sum, point) => sum + point.value.count, 0)).toBe(calls.length);
  expect(executed.reduce((sum, point) => sum + (point.value.sum ?? 0), 0)).toBeCloseTo(
    calls.reduce((sum, span) => sum + durationMs(span) / 1000, 0),
    9,
  );
  const inFlight = numberPoints(await otel.metric('toolwaves.calls.in_flight'));
  expect(inFlight.every((point) => point.value === 0)).toBe(true);
}

describe.each<DispatchMode>(['sequential', 'parallel', 'eager'])('%s mode', (mode) => {
  it('recovery: one span per attempt, the failed one ERROR tool_error and retried', async () => {
    const otel = otelHarness();
    const dispatcher = new Dispatcher({
      registry: registry(),
      mode,
      instrumentation: openTelemetry(otel.providers),
      recovery: { strategy: { name: 'again', decide: () => ({ action: 'retry', delayMs: 10 }) } },
    });
    const results = dispatcher.dispatch([
      { id: 'f', name: 'flaky', input: {} },
      work('w', 'k', 50),
    ]);
    await vi.advanceTimersByTimeAsync(500);
    expect((await results).map((result) => result.content)).toEqual(['fine', 'done']);

    const attempts = spansOf(otel, 'f');
    expect(attempts.map((span) => span.attributes['toolwaves.call.attempt'])).toEqual([1, 2]);
    expect(attempts[0]!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'tool_error' });
    expect(attempts[0]!.attributes).toMatchObject({
      'error.type': 'tool_error',
      'toolwaves.call.outcome': 'error',
      'toolwaves.call.retried': true,
    });
    expect(attempts[1]!.status.code).toBe(SpanStatusCode.UNSET);
    expect(attempts[1]!.attributes['toolwaves.call.outcome']).toBe('ok');
    const dispatch = otel.span('toolwaves.dispatch');
    for (const span of attempts) expect(span.parentSpanContext?.spanId).toBe(idOf(dispatch));
    // Nothing of the thrown error's message on the spans unless results are recorded.
    expect(JSON.stringify(otel.spans().map((span) => span.attributes))).not.toContain('reset');
    await expectMetricsMatchSpans(otel);
  });

  it('a timed-out call ends ERROR timeout at the limit; the batch goes on', async () => {
    const otel = otelHarness();
    const dispatcher = new Dispatcher({
      registry: registry(),
      mode,
      timeoutMs: 80,
      instrumentation: openTelemetry(otel.providers),
    });
    const results = dispatcher.dispatch([work('slow', 'a', 200), work('quick', 'b', 20)]);
    await vi.advanceTimersByTimeAsync(1000);
    expect((await results).map((result) => result.isError)).toEqual([true, false]);

    const [slow] = spansOf(otel, 'slow');
    expect(slow!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'timeout' });
    expect(slow!.attributes['error.type']).toBe('timeout');
    expect(durationMs(slow!)).toBe(80);
    expect(spansOf(otel, 'quick')[0]!.status.code).toBe(SpanStatusCode.UNSET);
    expect(otel.span('toolwaves.dispatch').attributes['toolwaves.dispatch.outcome']).toBe('ok');
    await expectMetricsMatchSpans(otel);
  });

  it('a hook blocks one call (ERROR blocked) and aborts the batch at another (failed, aborted)', async () => {
    const otel = otelHarness();
    const dispatcher = new Dispatcher({
      registry: registry(),
      mode,
      instrumentation: openTelemetry(otel.providers),
      hooks: {
        pre: [
          ({ call }) =>
            call.id === 'blocked'
              ? { action: 'block', reason: 'not on this branch' }
              : call.id === 'stop'
                ? { action: 'abort', reason: 'policy says stop' }
                : { action: 'allow' },
        ],
      },
    });
    const first = dispatcher.dispatch([work('blocked', 'a', 10), work('fine', 'b', 10)]);
    await vi.advanceTimersByTimeAsync(100);
    expect((await first).map((result) => result.isError)).toEqual([true, false]);
    expect(spansOf(otel, 'blocked')[0]!.attributes['error.type']).toBe('blocked');
    expect(spansOf(otel, 'fine')[0]!.status.code).toBe(SpanStatusCode.UNSET);

    const stopped = dispatcher.dispatch([work('stop', 'c', 10)]);
    stopped.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(100);
    await expect(stopped).rejects.toMatchObject({ code: 'aborted' });
    const [, failed] = otel.spans().filter((span) => span.name === 'toolwaves.dispatch');
    expect(failed!.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed!.status.message).toContain('policy says stop');
    expect(failed!.attributes).toMatchObject({
      'error.type': 'aborted',
      'toolwaves.dispatch.outcome': 'failed',
    });
    // The call the hook stopped at: its span says why the batch failed.
    const [stop] = spansOf(otel, 'stop');
    expect(stop!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'aborted' });
    expect(stop!.attributes['toolwaves.call.outcome']).toBe('error');
    await expectMetricsMatchSpans(otel);
  });

  it('cancelled: the running call and the one waiting for it end cancelled, the dispatch too', async () => {
    const otel = otelHarness();
    const dispatcher = new Dispatcher({
      registry: registry(),
      mode,
      instrumentation: openTelemetry(otel.providers),
    });
    const controller = new AbortController();
    const results = dispatcher.dispatch([work('first', 'k', 100), work('second', 'k', 100)], {
      signal: controller.signal,
    });
    results.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(30);
    controller.abort(new Error('user pressed Ctrl-C'));
    await vi.advanceTimersByTimeAsync(500);
    await expect(results).rejects.toMatchObject({ code: 'cancelled' });

    const [first] = spansOf(otel, 'first');
    expect(first!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'cancelled' });
    expect(first!.attributes['toolwaves.call.outcome']).toBe('cancelled');
    expect(durationMs(first!)).toBe(30);
    // The second call never got to run: a span only if its attempt had begun, and then cancelled.
    for (const span of spansOf(otel, 'second')) {
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'cancelled' });
    }
    const dispatch = otel.span('toolwaves.dispatch');
    expect(dispatch.status.code).toBe(SpanStatusCode.ERROR);
    expect(dispatch.attributes).toMatchObject({
      'error.type': 'cancelled',
      'toolwaves.dispatch.outcome': 'cancelled',
    });
    expect(durationMs(dispatch)).toBe(30);
    await expectMetricsMatchSpans(otel);
  });
});
