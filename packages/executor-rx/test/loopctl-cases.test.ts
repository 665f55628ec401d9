import { ToolRegistry } from '@toolwaves/core';
import { MockTool, trackPromise } from '@toolwaves/core/testing';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  type DispatchError,
  Dispatcher,
  type RecoveryStrategy,
  type ToolHealth,
} from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { ends, record, starts } from './recording.js';
import { call } from './tool-call.js';

useFakeClock();

const retry = (delayMs: number, times = Number.POSITIVE_INFINITY): RecoveryStrategy => ({
  name: `retry-${times}`,
  decide: ({ failure }) =>
    failure.attempt <= times ? { action: 'retry', delayMs } : { action: 'skip' },
});

describe('the loopctl dispatch cases, in virtual time', () => {
  it('runs independent calls at the same time: 3 × 100 ms finish at 100 ms', async () => {
    const slow = new MockTool({ name: 'slow', delayMs: 100, concurrencySafe: true });
    const dispatcher = new Dispatcher({ registry: new ToolRegistry().add(slow), mode: 'parallel' });
    const done = trackPromise(
      dispatcher.dispatch([call('a', 'slow'), call('b', 'slow'), call('c', 'slow')]),
    );
    await vi.advanceTimersByTimeAsync(99);
    expect(done.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(done.status).toBe('resolved');
    expect(slow.calls.map((c) => [c.startedAt, c.endedAt])).toEqual([
      [0, 100],
      [0, 100],
      [0, 100],
    ]);
    expect(slow.maxLive).toBe(3);
    expect(done.value?.map((r) => [r.toolCallId, r.content, r.isError, r.durationMs])).toEqual([
      ['a', 'slow ok', false, 100],
      ['b', 'slow ok', false, 100],
      ['c', 'slow ok', false, 100],
    ]);
  });

  it('answers in input order when calls finish in another order', async () => {
    const wait = new MockTool({
      name: 'wait',
      concurrencySafe: true,
      delayMs: (input) => (input as { ms: number }).ms,
      result: (input) => `waited ${(input as { ms: number }).ms}`,
    });
    const dispatcher = new Dispatcher({ registry: new ToolRegistry().add(wait), mode: 'parallel' });
    const run = record(
      dispatcher.run([
        call('a', 'wait', { ms: 300 }),
        call('b', 'wait', { ms: 100 }),
        call('c', 'wait', { ms: 200 }),
      ]),
    );
    await vi.advanceTimersByTimeAsync(300);
    expect(run.status).toBe('complete');
    expect(ends(run.events).map((e) => e.toolCallId)).toEqual(['b', 'c', 'a']);
    const last = run.events.at(-1);
    expect(
      last?.type === 'batch-end' && last.results.map((r) => [r.toolCallId, r.content]),
    ).toEqual([
      ['a', 'waited 300'],
      ['b', 'waited 100'],
      ['c', 'waited 200'],
    ]);
  });

  it('collects soft errors in their slots and goes on with the batch', async () => {
    const registry = new ToolRegistry()
      .add(new MockTool({ name: 'ok', concurrencySafe: true, delayMs: 10 }))
      .add(new MockTool({ name: 'throws', concurrencySafe: true, error: new Error('disk full') }))
      .add(
        new MockTool({
          name: 'reports',
          concurrencySafe: true,
          result: { content: 'no such file', isError: true },
        }),
      )
      .add(new MockTool({ name: 'typed', input: z.object({ path: z.string() }) }));
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const done = trackPromise(
      dispatcher.dispatch([
        call('1', 'throws'),
        call('2', 'reports'),
        call('3', 'nope'),
        call('4', 'typed', { path: 7 }),
        call('5', 'ok'),
      ]),
    );
    await vi.advanceTimersByTimeAsync(10);
    expect(done.status).toBe('resolved');
    expect(done.value?.map((r) => [r.toolCallId, r.isError, r.content])).toEqual([
      ['1', true, 'Tool `throws` failed: disk full'],
      ['2', true, 'no such file'],
      ['3', true, 'Unknown tool `nope`; registered tools: `ok`, `reports`, `throws`, `typed`'],
      ['4', true, 'Invalid input for tool `typed`: `path`: expected string, received number'],
      ['5', false, 'ok ok'],
    ]);
  });

  it('a hard error (cancel at 50 ms, cap 1) rejects at 50 ms with no partial results', async () => {
    const fast = new MockTool({ name: 'fast', delayMs: 10, concurrencySafe: true });
    const slow = new MockTool({ name: 'slow', delayMs: 10_000, concurrencySafe: true });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(fast).add(slow),
      mode: 'parallel',
      maxConcurrency: 1,
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user pressed stop')), 50);
    const run = record(
      dispatcher.run([call('f', 'fast'), call('s', 'slow')], { signal: controller.signal }),
    );
    await vi.advanceTimersByTimeAsync(49);
    expect(run.status).toBe('running');
    expect(slow.calls[0]?.startedAt).toBe(10);
    await vi.advanceTimersByTimeAsync(1);
    expect(run.status).toBe('error');
    const error = run.error as DispatchError;
    expect(error.name).toBe('DispatchError');
    expect(error.code).toBe('cancelled');
    expect((error.cause as Error).message).toBe('user pressed stop');
    expect(run.events.some((e) => e.type === 'batch-end')).toBe(false);
    expect(ends(run.events).map((e) => [e.toolCallId, e.outcome, e.durationMs])).toEqual([
      ['f', 'ok', 10],
      ['s', 'cancelled', 40],
    ]);
    expect(slow.calls[0]?.outcome).toBe('aborted');
    expect(slow.calls[0]?.endedAt).toBe(50);
    expect(fast.calls[0]?.outcome).toBe('ok');
    // The same through dispatch: the promise rejects, nothing resolved is returned.
    const again = new AbortController();
    const done = trackPromise(
      dispatcher.dispatch([call('f', 'fast'), call('s', 'slow')], { signal: again.signal }),
    );
    await vi.advanceTimersByTimeAsync(50);
    again.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(done.status).toBe('rejected');
    expect((done.error as DispatchError).code).toBe('cancelled');
  });

  it('runs sequentially by default: one call after another', async () => {
    const slow = new MockTool({ name: 'slow', delayMs: 100, concurrencySafe: true });
    const dispatcher = new Dispatcher({ registry: new ToolRegistry().add(slow) });
    expect(dispatcher.mode).toBe('sequential');
    const run = record(dispatcher.run([call('a', 'slow'), call('b', 'slow'), call('c', 'slow')]));
    await vi.advanceTimersByTimeAsync(300);
    expect(run.status).toBe('complete');
    expect(slow.calls.map((c) => [c.startedAt, c.endedAt])).toEqual([
      [0, 100],
      [100, 200],
      [200, 300],
    ]);
    expect(slow.maxLive).toBe(1);
    const first = run.events[0];
    expect(first?.type === 'batch-start' && first.mode).toBe('sequential');
    expect(first?.type === 'batch-start' && first.plan?.waves.map((w) => w.calls)).toEqual([
      [0],
      [1],
      [2],
    ]);
  });

  it('a back-off of 10 s cancelled at 50 ms rejects at 50 ms', async () => {
    const flaky = new MockTool({ name: 'flaky', error: new Error('busy') });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(flaky),
      recovery: { strategy: retry(10_000) },
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const done = trackPromise(
      dispatcher.dispatch([call('a', 'flaky')], { signal: controller.signal }),
    );
    await vi.advanceTimersByTimeAsync(49);
    expect(done.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(done.status).toBe('rejected');
    expect((done.error as DispatchError).code).toBe('cancelled');
    expect(flaky.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(flaky.calls).toHaveLength(1);
  });

  it('retrying twice then skipping gives 3 pre + 3 post events and a soft error', async () => {
    const flaky = new MockTool({ name: 'flaky', error: new Error('busy') });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(flaky),
      recovery: { strategy: retry(10, 2) },
    });
    const run = record(dispatcher.run([call('a', 'flaky')]));
    await vi.advanceTimersByTimeAsync(20);
    expect(run.status).toBe('complete');
    expect(starts(run.events).map((e) => [e.toolCallId, e.attempt])).toEqual([
      ['a', 1],
      ['a', 2],
      ['a', 3],
    ]);
    expect(ends(run.events).map((e) => [e.attempt, e.outcome, e.waitMs])).toEqual([
      [1, 'retry', 0],
      [2, 'retry', 10],
      [3, 'error', 10],
    ]);
    expect(flaky.calls.map((c) => [c.attempt, c.startedAt])).toEqual([
      [1, 0],
      [2, 10],
      [3, 20],
    ]);
    const last = run.events.at(-1);
    expect(last?.type === 'batch-end' && last.results).toEqual([
      {
        toolCallId: 'a',
        toolName: 'flaky',
        content: 'Recovery gave up on `flaky` after 3 attempts: Tool `flaky` failed: busy',
        isError: true,
        durationMs: 0,
      },
    ]);
  });

  it('an always-retry strategy stops with recovery_exhausted after 6 attempts', async () => {
    const flaky = new MockTool({ name: 'flaky', error: new Error('busy') });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(flaky),
      recovery: { strategy: retry(1) },
    });
    const run = record(dispatcher.run([call('a', 'flaky')]));
    await vi.advanceTimersByTimeAsync(100);
    expect(run.status).toBe('error');
    const error = run.error as DispatchError;
    expect(error.code).toBe('recovery_exhausted');
    expect(error.attempts).toBe(6);
    expect(error.toolName).toBe('flaky');
    expect(error.message).toBe(
      'Recovery exhausted: `flaky` (call `a`) failed 6 attempts (at most 5 retries); last error: Tool `flaky` failed: busy',
    );
    expect(flaky.calls).toHaveLength(6);
    expect(ends(run.events).map((e) => e.outcome)).toEqual([
      'retry',
      'retry',
      'retry',
      'retry',
      'retry',
      'hard-error',
    ]);
    expect(starts(run.events)).toHaveLength(6);
  });
});

describe.each(['sequential', 'parallel'] as const)('recovery in %s mode', (mode) => {
  it('runs the same pipeline: reflect, back off, retry, then answer', async () => {
    const flaky = new MockTool({
      name: 'flaky',
      concurrencySafe: true,
      delayMs: 5,
      error: (_input, attempt) => (attempt < 3 ? new Error(`busy ${attempt}`) : undefined),
    });
    const steady = new MockTool({ name: 'steady', concurrencySafe: true, delayMs: 5 });
    const seen: string[] = [];
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(flaky).add(steady),
      mode,
      recovery: {
        reflector: {
          reflect: (failure) => {
            seen.push(`${failure.toolName}#${failure.attempt}:${failure.kind}`);
            return { failure, retryable: true };
          },
        },
        strategy: retry(100),
      },
    });
    const run = record(dispatcher.run([call('f', 'flaky'), call('s', 'steady')]));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run.status).toBe('complete');
    const first = run.events[0];
    expect(first?.type === 'batch-start' && first.plan?.waves.length).toBe(
      mode === 'parallel' ? 1 : 2,
    );
    expect(seen).toEqual(['flaky#1:tool_error', 'flaky#2:tool_error']);
    const flakyEnds = ends(run.events).filter((e) => e.toolCallId === 'f');
    expect(flakyEnds.map((e) => [e.attempt, e.outcome, e.durationMs, e.waitMs])).toEqual([
      [1, 'retry', 5, 0],
      [2, 'retry', 5, 100],
      [3, 'ok', 5, 100],
    ]);
    expect(flaky.calls.map((c) => c.startedAt - flaky.calls[0]!.startedAt)).toEqual([0, 105, 210]);
    const last = run.events.at(-1);
    expect(
      last?.type === 'batch-end' && last.results.map((r) => [r.toolCallId, r.content]),
    ).toEqual([
      ['f', 'flaky ok'],
      ['s', 'steady ok'],
    ]);
    const health: ToolHealth = dispatcher.health;
    expect(health.stats('flaky')).toEqual({ successes: 1, failures: 2, latencyMs: 5 });
  });
});
