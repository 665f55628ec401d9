import { fnTool, ToolRegistry } from '@toolwaves/core';
import { MockTool, trackPromise } from '@toolwaves/core/testing';
import { describe, expect, it, vi } from 'vitest';
import { type DispatchEvent, Dispatcher, type DispatcherOptions } from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { record, starts } from './recording.js';
import { call } from './tool-call.js';

useFakeClock();

/**
 * A writer of `file` that ignores its signal: it answers `ms` after it starts, whatever happens.
 * `settled` lists the ids of the calls whose tool has really ended.
 */
function stubbornWriter(settled: string[]) {
  return fnTool({
    name: 'stubborn',
    description: 'writes a file and ignores its signal',
    concurrencySafe: true,
    resourceKey: (input: unknown) => (input as { file: string }).file,
    execute: (input: unknown, context) =>
      new Promise<string>((resolve) =>
        setTimeout(
          () => {
            settled.push(context.toolCallId);
            resolve('written');
          },
          (input as { ms: number }).ms,
        ),
      ),
  });
}

function setup(options: Partial<DispatcherOptions> = {}) {
  const settled: string[] = [];
  const writer = new MockTool({
    name: 'write',
    delayMs: 10,
    concurrencySafe: true,
    resourceKey: (input) => (input as { file: string }).file,
  });
  const dispatcher = new Dispatcher({
    registry: new ToolRegistry().add(stubbornWriter(settled)).add(writer),
    mode: 'parallel',
    timeoutMs: 100,
    ...options,
  });
  return { dispatcher, writer, settled };
}

const stubborn = (id: string, file: string, ms: number) => call(id, 'stubborn', { file, ms });
const write = (id: string, file: string) => call(id, 'write', { file });

describe('a call whose tool outlives its attempt keeps its keys until the tool settles', () => {
  it('a later batch: the conflicting write waits for the tool, the other one does not', async () => {
    const { dispatcher, writer, settled } = setup();
    const first = trackPromise(dispatcher.dispatch([stubborn('a', 'f', 500)]));
    await vi.advanceTimersByTimeAsync(100);
    // The slot is answered at the timeout, not when the tool ends.
    expect(first.status).toBe('resolved');
    expect(first.value?.[0]?.content).toBe('Tool `stubborn` timed out after 100 ms');
    const second = trackPromise(dispatcher.dispatch([write('b', 'f'), write('c', 'g')]));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(second.status).toBe('resolved');
    expect(settled).toEqual(['a']);
    // a's tool ends at 500; b writes f only then, c writes g at once.
    expect(writer.calls.map((c) => [c.toolCallId, c.startedAt, c.endedAt])).toEqual([
      ['c', 100, 110],
      ['b', 500, 510],
    ]);
  });

  it('the same batch: a later wave writing the same file waits, the batch does not wait otherwise', async () => {
    const { dispatcher, writer } = setup();
    const run = record(dispatcher.run([stubborn('a', 'f', 500), write('b', 'f'), write('c', 'g')]));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(run.status).toBe('complete');
    expect(writer.calls.map((c) => [c.toolCallId, c.startedAt])).toEqual([
      ['c', 0],
      ['b', 500],
    ]);
    const end = run.events.at(-1);
    expect(end?.type === 'batch-end' && end.durationMs).toBe(510);
  });

  it('a batch with no conflicting call never waits for it', async () => {
    const { dispatcher, settled } = setup();
    const first = trackPromise(dispatcher.dispatch([stubborn('a', 'f', 10_000)]));
    await vi.advanceTimersByTimeAsync(100);
    expect(first.status).toBe('resolved');
    const second = trackPromise(dispatcher.dispatch([write('b', 'g'), write('c', 'h')]));
    await vi.advanceTimersByTimeAsync(10);
    expect(second.status).toBe('resolved');
    expect(settled).toEqual([]);
  });

  it('after settleTimeoutMs the keys are given back anyway, and the waiting batch is told', async () => {
    const { dispatcher, writer } = setup({ settleTimeoutMs: 300 });
    const first = trackPromise(dispatcher.dispatch([stubborn('a', 'f', 60_000)]));
    await vi.advanceTimersByTimeAsync(100);
    expect(first.status).toBe('resolved');
    await vi.advanceTimersByTimeAsync(50);
    const second = record(dispatcher.run([write('b', 'f')]));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(second.status).toBe('complete');
    // Held from 100 (the timeout) to 400 (100 + 300); b starts then.
    expect(writer.calls.map((c) => [c.toolCallId, c.startedAt])).toEqual([['b', 400]]);
    const types = second.events.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual([
      'batch-start',
      'wave-start',
      'settle-timeout',
      'call-start',
    ]);
    expect(second.events.find((e) => e.type === 'settle-timeout')).toEqual({
      type: 'settle-timeout',
      toolCallId: 'a',
      toolName: 'stubborn',
      heldMs: 300,
    });
  });

  it('a cancelled batch: its tool still running holds its file for the next batch', async () => {
    const { dispatcher, writer } = setup({ timeoutMs: undefined });
    const controller = new AbortController();
    const first = trackPromise(
      dispatcher.dispatch([stubborn('a', 'f', 500)], { signal: controller.signal }),
    );
    await vi.advanceTimersByTimeAsync(50);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(first.status).toBe('rejected');
    const second = trackPromise(dispatcher.dispatch([write('b', 'f')]));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(second.status).toBe('resolved');
    expect(writer.calls.map((c) => [c.toolCallId, c.startedAt])).toEqual([['b', 500]]);
  });

  it('sequential mode: a tool that is not concurrency-safe holds everything until it settles', async () => {
    const settled: string[] = [];
    const hang = fnTool({
      name: 'hang',
      description: 'not concurrency-safe, ignores its signal',
      execute: () =>
        new Promise<string>((resolve) =>
          setTimeout(() => {
            settled.push('hang');
            resolve('late');
          }, 400),
        ),
    });
    const reader = new MockTool({ name: 'read', concurrencySafe: true });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(hang).add(reader),
      timeoutMs: 100,
    });
    const run = record(dispatcher.run([call('a', 'hang'), call('b', 'read')]));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run.status).toBe('complete');
    expect(reader.calls.map((c) => c.startedAt)).toEqual([400]);
    expect(settled).toEqual(['hang']);
    const bStart = starts(run.events).find((e) => e.toolCallId === 'b');
    expect(bStart?.fleetWaitMs).toBe(0);
  });

  it('the wait is not part of the waiting call: not in its timeout, not in its duration', async () => {
    const { dispatcher, writer } = setup({ timeoutMs: 100 });
    const events: DispatchEvent[] = [];
    trackPromise(dispatcher.dispatch([stubborn('a', 'f', 400)]));
    await vi.advanceTimersByTimeAsync(100);
    const second = trackPromise(
      dispatcher.dispatch([write('b', 'f')], { onEvent: (e) => events.push(e) }),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(second.status).toBe('resolved');
    expect(second.value?.[0]).toMatchObject({
      content: 'write ok',
      isError: false,
      durationMs: 10,
    });
    expect(writer.calls.map((c) => c.startedAt)).toEqual([400]);
    const end = events.find((e) => e.type === 'call-end');
    expect(end?.type === 'call-end' && [end.durationMs, end.waitMs]).toEqual([10, 300]);
  });
});
