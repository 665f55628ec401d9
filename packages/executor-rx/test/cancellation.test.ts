import { fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { MockTool, trackPromise } from '@toolwaves/core/testing';
import { take } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { type DispatchError, type DispatchEvent, Dispatcher } from '../src/index.js';
import { fillResultSlots } from '../src/run-batch.js';
import { useFakeClock } from './fake-clock.js';
import { ends, record, starts } from './recording.js';
import { call } from './tool-call.js';

useFakeClock();

describe('cancellation', () => {
  it('an already aborted signal rejects before anything runs', async () => {
    const tool = new MockTool({ name: 'm' });
    const dispatcher = new Dispatcher({ registry: new ToolRegistry().add(tool) });
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    const run = record(dispatcher.run([call('a', 'm')], { signal: controller.signal }));
    expect(run.status).toBe('error');
    expect((run.error as DispatchError).code).toBe('cancelled');
    expect(run.events).toEqual([]);
    expect(tool.calls).toEqual([]);
  });

  it('is checked at the wave boundary: a later wave never starts', async () => {
    const tool = new MockTool({ name: 'm', delayMs: 100, concurrencySafe: true, resourceKey: 'k' });
    const dispatcher = new Dispatcher({ registry: new ToolRegistry().add(tool), mode: 'parallel' });
    const controller = new AbortController();
    const events: DispatchEvent[] = [];
    let failure: unknown;
    dispatcher
      .run([call('a', 'm'), call('b', 'm'), call('c', 'm')], { signal: controller.signal })
      .subscribe({
        next: (event) => {
          events.push(event);
          // Cancel between waves, when no call is in flight.
          if (event.type === 'wave-end' && event.wave === 0) controller.abort();
        },
        error: (error: unknown) => {
          failure = error;
        },
      });
    await vi.advanceTimersByTimeAsync(100);
    expect((failure as DispatchError).code).toBe('cancelled');
    expect(events.map((e) => e.type)).toEqual([
      'batch-start',
      'wave-start',
      'call-start',
      'call-end',
      'wave-end',
    ]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(tool.calls.map((c) => c.toolCallId)).toEqual(['a']);
  });

  it('a tool that ignores its signal does not hold the batch: each call races the cancel', async () => {
    const stubborn = fnTool({
      name: 'stubborn',
      description: 'ignores its signal',
      concurrencySafe: true,
      execute: () => new Promise<string>((resolve) => setTimeout(() => resolve('done'), 10_000)),
    });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(stubborn),
      mode: 'parallel',
    });
    const controller = new AbortController();
    const done = trackPromise(
      dispatcher.dispatch([call('a', 'stubborn'), call('b', 'stubborn')], {
        signal: controller.signal,
      }),
    );
    await vi.advanceTimersByTimeAsync(30);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(done.status).toBe('rejected');
    expect((done.error as DispatchError).code).toBe('cancelled');
  });

  it('unsubscribing stops the batch and aborts the signals of the tools in flight', async () => {
    const tool = new MockTool({ name: 'm', delayMs: 1_000, concurrencySafe: true });
    const dispatcher = new Dispatcher({ registry: new ToolRegistry().add(tool), mode: 'parallel' });
    const seen: DispatchEvent[] = [];
    const subscription = dispatcher
      .run([call('a', 'm'), call('b', 'm')])
      .subscribe((event) => seen.push(event));
    await vi.advanceTimersByTimeAsync(10);
    subscription.unsubscribe();
    await vi.advanceTimersByTimeAsync(0);
    expect(tool.calls.map((c) => [c.outcome, c.endedAt])).toEqual([
      ['aborted', 10],
      ['aborted', 10],
    ]);
    expect(starts(seen)).toHaveLength(2);
    expect(ends(seen)).toEqual([]);
  });

  it('unsubscribing during a back-off cancels the retry', async () => {
    const flaky = new MockTool({ name: 'flaky', error: new Error('busy') });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(flaky),
      recovery: {
        strategy: { name: 'later', decide: () => ({ action: 'retry', delayMs: 100 }) },
      },
    });
    const subscription = dispatcher.run([call('a', 'flaky')]).subscribe();
    await vi.advanceTimersByTimeAsync(50);
    expect(flaky.calls).toHaveLength(1);
    subscription.unsubscribe();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(flaky.calls).toHaveLength(1);
  });

  it('take(n) on the events stops the batch too: stopped on its call-start, the tool never runs', async () => {
    const tool = new MockTool({ name: 'm', delayMs: 100 });
    const dispatcher = new Dispatcher({ registry: new ToolRegistry().add(tool) });
    const run = record(dispatcher.run([call('a', 'm'), call('b', 'm')]).pipe(take(3)));
    expect(run.status).toBe('complete');
    expect(run.events.map((e) => e.type)).toEqual(['batch-start', 'wave-start', 'call-start']);
    await vi.advanceTimersByTimeAsync(500);
    // `call-start` reaches observers before the tool runs: stopping there, nothing ran.
    expect(tool.calls).toEqual([]);
  });
});

describe('result slots', () => {
  it('an empty slot becomes the soft error "dispatch produced no result"', () => {
    const calls: ToolCall[] = [call('a', 'read'), call('b', 'write')];
    const filled = fillResultSlots(calls, [
      { toolCallId: 'a', toolName: 'read', content: 'x', isError: false, durationMs: 3 },
      undefined,
    ]);
    expect(filled).toEqual([
      { toolCallId: 'a', toolName: 'read', content: 'x', isError: false, durationMs: 3 },
      {
        toolCallId: 'b',
        toolName: 'write',
        content: 'dispatch produced no result for call `b` (`write`)',
        isError: true,
        durationMs: 0,
      },
    ]);
  });
});
