import { metrics, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { AttemptStartInfo, BatchInstrument, ToolResult } from '@toolwaves/core';
import { describe, expect, it, vi } from 'vitest';
import { OtelError, openTelemetry } from '../src/index.js';
import {
  durationMs,
  histogramPoints,
  idOf,
  numberPoints,
  otelHarness,
  parentOf,
  useAsyncContext,
  useFakeClock,
  within,
} from './otel-harness.js';

// The instrumentation driven through its interface, the way a Dispatcher calls it, in virtual
// time: the turn of the scenario below is written out call by call.

useAsyncContext();
useFakeClock();

/** An attempt as a Dispatcher begins it: first attempt, no input, waiting for nothing unless said. */
const begin = (
  batch: BatchInstrument,
  info: Pick<AttemptStartInfo, 'toolCallId' | 'toolName'> & Partial<AttemptStartInfo>,
) => batch.startAttempt({ index: 0, attempt: 1, input: {}, waitedFor: [], ...info });

const result = (toolCallId: string, content: string, isError = false): ToolResult => ({
  toolCallId,
  toolName: 'tool',
  content,
  isError,
  durationMs: 0,
});

describe('openTelemetry through the Instrumentation interface', () => {
  it('read then write of one file: the write waits 100 ms for the read, links to it, and runs in its span', async () => {
    const otel = otelHarness();
    const instrumentation = openTelemetry(otel.providers);
    const turn = otel.tracer.startSpan('agent turn');

    const batch = within(turn, () =>
      instrumentation.startBatch({
        mode: 'eager',
        source: 'batch',
        callCount: 2,
        maxConcurrency: 8,
      }),
    );
    turn.end();
    const read = batch.startAttempt({
      toolCallId: 'call_read',
      toolName: 'read_file',
      toolDescription: 'Read a file',
      index: 0,
      attempt: 1,
      input: { path: 'a.txt' },
      waitedFor: [],
    });
    const write = batch.startAttempt({
      toolCallId: 'call_write',
      toolName: 'write_file',
      index: 1,
      attempt: 1,
      input: { path: 'a.txt', text: 'secret text' },
      waitedFor: ['call_read'],
    });
    read.granted({ keyWaitMs: 0, fleetWaitMs: 0 });
    await read.run(async () => {
      await vi.advanceTimersByTimeAsync(100);
    });
    read.end({ outcome: 'ok', result: result('call_read', 'contents'), retried: false });
    write.granted({ keyWaitMs: 100, fleetWaitMs: 0 });
    await write.run(async () => {
      // A span the tool starts itself.
      const own = otel.tracer.startSpan('fs.writeFile');
      await vi.advanceTimersByTimeAsync(50);
      own.end();
    });
    write.end({ outcome: 'ok', result: result('call_write', 'wrote'), retried: false });
    batch.end({ outcome: 'ok', callCount: 2 });

    const dispatch = otel.span('toolwaves.dispatch');
    const readSpan = otel.span('execute_tool read_file');
    const writeSpan = otel.span('execute_tool write_file');
    const toolsOwn = otel.span('fs.writeFile');
    expect(parentOf(dispatch)).toBe(idOf(otel.span('agent turn')));
    expect(parentOf(readSpan)).toBe(idOf(dispatch));
    expect(parentOf(writeSpan)).toBe(idOf(dispatch));
    expect(parentOf(toolsOwn)).toBe(idOf(writeSpan));
    expect(new Set(otel.spans().map((span) => span.spanContext().traceId)).size).toBe(1);

    expect(dispatch.kind).toBe(SpanKind.INTERNAL);
    expect(dispatch.attributes).toEqual({
      'toolwaves.dispatch.mode': 'eager',
      'toolwaves.dispatch.source': 'batch',
      'toolwaves.dispatch.max_concurrency': 8,
      'toolwaves.dispatch.call_count': 2,
      'toolwaves.dispatch.outcome': 'ok',
    });
    expect(dispatch.status.code).toBe(SpanStatusCode.UNSET);
    expect(durationMs(dispatch)).toBe(150);

    expect(readSpan.kind).toBe(SpanKind.INTERNAL);
    expect(readSpan.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'read_file',
      'gen_ai.tool.call.id': 'call_read',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Read a file',
      'toolwaves.call.index': 0,
      'toolwaves.call.attempt': 1,
      'toolwaves.call.key_wait_ms': 0,
      'toolwaves.call.fleet_wait_ms': 0,
      'toolwaves.call.outcome': 'ok',
    });
    expect(writeSpan.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'write_file',
      'gen_ai.tool.call.id': 'call_write',
      'gen_ai.tool.type': 'function',
      'toolwaves.call.index': 1,
      'toolwaves.call.attempt': 1,
      'toolwaves.call.waited_for': ['call_read'],
      'toolwaves.call.key_wait_ms': 100,
      'toolwaves.call.fleet_wait_ms': 0,
      'toolwaves.call.outcome': 'ok',
    });
    expect(writeSpan.links.map((link) => link.context.spanId)).toEqual([idOf(readSpan)]);
    expect(readSpan.links).toEqual([]);
    // The write's span begins when it may run: after the read, not with it.
    expect(durationMs(readSpan)).toBe(100);
    expect(durationMs(writeSpan)).toBe(50);

    const executed = histogramPoints(await otel.metric('gen_ai.execute_tool.duration'));
    expect(
      executed.map((point) => [point.attributes['gen_ai.tool.name'], point.value.sum]),
    ).toEqual([
      ['read_file', 0.1],
      ['write_file', 0.05],
    ]);
    expect(
      executed.every((point) => point.attributes['gen_ai.operation.name'] === 'execute_tool'),
    ).toBe(true);
    const waited = histogramPoints(await otel.metric('toolwaves.call.wait.duration'));
    expect(
      waited.map((point) => [
        point.attributes['gen_ai.tool.name'],
        point.attributes['toolwaves.wait.kind'],
        point.value.sum,
      ]),
    ).toEqual([
      ['read_file', 'keys', 0],
      ['write_file', 'keys', 0.1],
    ]);
  });

  it('counts the tools in flight while they run, and none after', async () => {
    const otel = otelHarness();
    const batch = openTelemetry(otel.providers).startBatch({
      mode: 'parallel',
      source: 'batch',
      planner: 'greedy',
      callCount: 3,
      maxConcurrency: 8,
    });
    const attempts = ['a', 'b', 'c'].map((id, index) =>
      begin(batch, { toolCallId: id, toolName: 'read_file', index }),
    );
    for (const attempt of attempts.slice(0, 2)) attempt.granted({ keyWaitMs: 0, fleetWaitMs: 0 });
    const inFlight = async () =>
      numberPoints(await otel.metric('toolwaves.calls.in_flight')).map((point) => point.value);
    expect(await inFlight()).toEqual([2]);
    attempts[0]!.end({ outcome: 'ok', retried: false });
    attempts[2]!.granted({ keyWaitMs: 0, fleetWaitMs: 0 });
    expect(await inFlight()).toEqual([2]);
    attempts[1]!.end({ outcome: 'ok', retried: false });
    attempts[2]!.end({ outcome: 'ok', retried: false });
    expect(await inFlight()).toEqual([0]);
    batch.end({ outcome: 'ok', callCount: 3, waves: 1 });
    expect(otel.span('toolwaves.dispatch').attributes['toolwaves.dispatch.waves']).toBe(1);
    expect(otel.span('toolwaves.dispatch').attributes['toolwaves.dispatch.planner']).toBe('greedy');
  });

  it('a fleet grant: its wait, its fencing token, and a wait point of kind fleet', async () => {
    const otel = otelHarness();
    const batch = openTelemetry(otel.providers).startBatch({
      mode: 'sequential',
      source: 'turn',
      maxConcurrency: 1,
    });
    const attempt = begin(batch, { toolCallId: 'c1', toolName: 'deploy' });
    attempt.granted({ keyWaitMs: 0, fleetWaitMs: 250, fencingToken: 42 });
    attempt.end({ outcome: 'ok', retried: false });
    batch.end({ outcome: 'ok', callCount: 1 });

    const span = otel.span('execute_tool deploy');
    expect(span.attributes['toolwaves.call.fleet_wait_ms']).toBe(250);
    expect(span.attributes['toolwaves.call.fencing_token']).toBe(42);
    const waited = histogramPoints(await otel.metric('toolwaves.call.wait.duration'));
    expect(
      waited.map((point) => [point.attributes['toolwaves.wait.kind'], point.value.sum]),
    ).toEqual([
      ['keys', 0],
      ['fleet', 0.25],
    ]);
    expect(otel.span('toolwaves.dispatch').attributes['toolwaves.dispatch.source']).toBe('turn');
  });

  it('one span per attempt under recovery; a later call links to the attempt that answered', async () => {
    const otel = otelHarness();
    const batch = openTelemetry(otel.providers).startBatch({
      mode: 'sequential',
      source: 'batch',
      callCount: 2,
      maxConcurrency: 1,
    });
    const attempt = (n: number) =>
      begin(batch, { toolCallId: 'flaky', toolName: 'fetch', attempt: n });
    const first = attempt(1);
    first.granted({ keyWaitMs: 0, fleetWaitMs: 0 });
    first.end({
      outcome: 'error',
      errorKind: 'tool_error',
      result: result('flaky', 'boom', true),
      retried: true,
    });
    const second = attempt(2);
    second.granted({ keyWaitMs: 0, fleetWaitMs: 0 });
    second.end({ outcome: 'ok', result: result('flaky', 'ok'), retried: false });
    const next = begin(batch, {
      toolCallId: 'next',
      toolName: 'save',
      index: 1,
      waitedFor: ['flaky'],
    });
    next.granted({ keyWaitMs: 0, fleetWaitMs: 0 });
    next.end({ outcome: 'ok', retried: false });
    batch.end({ outcome: 'ok', callCount: 2 });

    const spans = otel.spans().filter((span) => span.name === 'execute_tool fetch');
    expect(spans.map((span) => span.attributes['toolwaves.call.attempt'])).toEqual([1, 2]);
    expect(spans[0]!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'tool_error' });
    expect(spans[0]!.attributes['error.type']).toBe('tool_error');
    expect(spans[0]!.attributes['toolwaves.call.retried']).toBe(true);
    expect(spans[1]!.status.code).toBe(SpanStatusCode.UNSET);
    expect(spans[1]!.attributes['error.type']).toBeUndefined();
    expect(otel.span('execute_tool save').links.map((link) => link.context.spanId)).toEqual([
      idOf(spans[1]!),
    ]);
    const executed = histogramPoints(await otel.metric('gen_ai.execute_tool.duration'));
    expect(
      executed
        .filter((point) => point.attributes['gen_ai.tool.name'] === 'fetch')
        .map((point) => [point.attributes['error.type'], point.value.count]),
    ).toEqual([
      ['tool_error', 1],
      [undefined, 1],
    ]);
  });

  it('a timed-out call, and a call cancelled while it waited: ERROR with their error types; the batch cancelled', async () => {
    const otel = otelHarness();
    const batch = openTelemetry(otel.providers).startBatch({
      mode: 'eager',
      source: 'stream',
      maxConcurrency: 8,
    });
    const slow = begin(batch, { toolCallId: 'slow', toolName: 'sleep' });
    const queued = begin(batch, {
      toolCallId: 'queued',
      toolName: 'write_file',
      index: 1,
      waitedFor: ['slow'],
    });
    slow.granted({ keyWaitMs: 0, fleetWaitMs: 0 });
    await vi.advanceTimersByTimeAsync(1000);
    slow.end({
      outcome: 'error',
      errorKind: 'timeout',
      result: result('slow', 'timed out after 1000 ms', true),
      retried: false,
    });
    await vi.advanceTimersByTimeAsync(20);
    queued.end({ outcome: 'cancelled', retried: false });
    const cancelled = Object.assign(new Error('the dispatch was cancelled'), { code: 'cancelled' });
    batch.end({ outcome: 'cancelled', callCount: 2, error: cancelled });

    const timedOut = otel.span('execute_tool sleep');
    expect(timedOut.status).toEqual({ code: SpanStatusCode.ERROR, message: 'timeout' });
    expect(timedOut.attributes['error.type']).toBe('timeout');
    expect(durationMs(timedOut)).toBe(1000);
    const neverRan = otel.span('execute_tool write_file');
    expect(neverRan.status).toEqual({ code: SpanStatusCode.ERROR, message: 'cancelled' });
    expect(neverRan.attributes['error.type']).toBe('cancelled');
    expect(neverRan.attributes['toolwaves.call.outcome']).toBe('cancelled');
    // It never ran: its span covers the time it waited, from its start to the cancellation.
    expect(durationMs(neverRan)).toBe(1020);
    expect(neverRan.attributes['toolwaves.call.key_wait_ms']).toBeUndefined();
    expect(neverRan.links.map((link) => link.context.spanId)).toEqual([idOf(timedOut)]);
    const dispatch = otel.span('toolwaves.dispatch');
    expect(dispatch.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'the dispatch was cancelled',
    });
    expect(dispatch.attributes['error.type']).toBe('cancelled');
    expect(dispatch.attributes['toolwaves.dispatch.outcome']).toBe('cancelled');
    expect(dispatch.attributes['toolwaves.dispatch.call_count']).toBe(2);
    const inFlight = numberPoints(await otel.metric('toolwaves.calls.in_flight'));
    expect(inFlight.map((point) => point.value)).toEqual([0]);
  });

  it('a failed batch names the hard error by its class when it has no code', () => {
    const otel = otelHarness();
    const batch = openTelemetry(otel.providers).startBatch({
      mode: 'parallel',
      source: 'batch',
      callCount: 0,
      maxConcurrency: 8,
    });
    batch.end({ outcome: 'failed', callCount: 0, error: new TypeError('hook exploded') });
    const dispatch = otel.span('toolwaves.dispatch');
    expect(dispatch.attributes['error.type']).toBe('TypeError');
    expect(dispatch.status).toEqual({ code: SpanStatusCode.ERROR, message: 'hook exploded' });
  });

  it('records nothing from arguments or results unless asked; records both when asked', () => {
    const run = (options: { recordArguments?: boolean; recordResults?: boolean }) => {
      const otel = otelHarness();
      const batch = openTelemetry({ ...otel.providers, ...options }).startBatch({
        mode: 'sequential',
        source: 'batch',
        callCount: 2,
        maxConcurrency: 1,
      });
      const ok = begin(batch, {
        toolCallId: 'c1',
        toolName: 'read_file',
        input: { path: 'secret-path' },
      });
      ok.granted({ keyWaitMs: 0, fleetWaitMs: 0 });
      ok.end({ outcome: 'ok', result: result('c1', 'secret-contents'), retried: false });
      const failed = begin(batch, {
        toolCallId: 'c2',
        toolName: 'write_file',
        index: 1,
        input: { text: 'secret-text' },
      });
      failed.granted({ keyWaitMs: 0, fleetWaitMs: 0 });
      failed.end({
        outcome: 'error',
        errorKind: 'tool_error',
        result: result('c2', 'secret-error'),
        retried: false,
      });
      batch.end({ outcome: 'ok', callCount: 2 });
      return otel.spans();
    };
    const everything = (spans: ReturnType<typeof run>) =>
      JSON.stringify(spans.map((span) => [span.name, span.attributes, span.status, span.events]));

    expect(everything(run({}))).not.toContain('secret');
    const recorded = run({ recordArguments: true, recordResults: true });
    const read = recorded.find((span) => span.name === 'execute_tool read_file')!;
    const write = recorded.find((span) => span.name === 'execute_tool write_file')!;
    expect(read.attributes['gen_ai.tool.call.arguments']).toBe('{"path":"secret-path"}');
    expect(read.attributes['gen_ai.tool.call.result']).toBe('secret-contents');
    expect(write.attributes['gen_ai.tool.call.arguments']).toBe('{"text":"secret-text"}');
    expect(write.attributes['gen_ai.tool.call.result']).toBe('secret-error');
    const argumentsOnly = run({ recordArguments: true });
    expect(everything(argumentsOnly)).toContain('secret-path');
    expect(everything(argumentsOnly)).not.toContain('secret-contents');
  });

  it('without providers it records to the global ones (those the Node SDK registers)', async () => {
    const otel = otelHarness();
    trace.setGlobalTracerProvider(otel.tracerProvider);
    metrics.setGlobalMeterProvider(otel.meterProvider);
    try {
      const batch = openTelemetry().startBatch({
        mode: 'eager',
        source: 'turn',
        maxConcurrency: 8,
      });
      const attempt = begin(batch, { toolCallId: 'c1', toolName: 'read_file' });
      attempt.granted({ keyWaitMs: 0, fleetWaitMs: 0 });
      attempt.end({ outcome: 'ok', retried: false });
      batch.end({ outcome: 'ok', callCount: 1 });
      expect(otel.spans().map((span) => span.name)).toEqual([
        'execute_tool read_file',
        'toolwaves.dispatch',
      ]);
      const executed = histogramPoints(await otel.metric('gen_ai.execute_tool.duration'));
      expect(executed.map((point) => point.value.count)).toEqual([1]);
    } finally {
      trace.disable();
      metrics.disable();
    }
  });

  it('rejects options of the wrong kind, naming them', () => {
    expect(() => openTelemetry({ recordArguments: 'yes' as never })).toThrow(
      new OtelError({
        code: 'invalid_options',
        message: 'Expected `recordArguments` to be a boolean, got `"yes"` (string)',
      }),
    );
    expect(() => openTelemetry({ tracerProvider: {} as never })).toThrow(
      'Expected `tracerProvider` to be an object with a `getTracer` method',
    );
    expect(() => openTelemetry({ meterProvider: 3 as never })).toThrow(
      'Expected `meterProvider` to be an object with a `getMeter` method, got `3` (number)',
    );
  });

  it('refuses an unknown option, naming the one meant (a misspelt provider would record nothing)', () => {
    expect(() => openTelemetry({ tracerProvidr: {} } as never)).toThrow(
      new OtelError({
        code: 'invalid_options',
        message:
          'Unknown option `tracerProvidr` in the options of openTelemetry; did you mean `tracerProvider`? The options are `tracerProvider`, `meterProvider`, `recordArguments`, `recordResults`',
      }),
    );
  });
});
