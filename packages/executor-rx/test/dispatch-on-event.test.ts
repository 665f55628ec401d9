import { ToolRegistry } from '@toolwaves/core';
import { MockTool, trackPromise } from '@toolwaves/core/testing';
import { describe, expect, it, vi } from 'vitest';
import { type DispatchError, type DispatchEvent, Dispatcher } from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { record } from './recording.js';
import { call } from './tool-call.js';

useFakeClock();

const registry = () =>
  new ToolRegistry().add(
    new MockTool({ name: 'm', delayMs: 10, concurrencySafe: true, resourceKey: 'k' }),
  );

describe('dispatch with onEvent', () => {
  it('hands over the events run() emits, and resolves with the results', async () => {
    const dispatcher = new Dispatcher({ registry: registry(), mode: 'parallel' });
    const calls = [call('a', 'm'), call('b', 'm')];
    const seen: DispatchEvent[] = [];
    const done = trackPromise(dispatcher.dispatch(calls, { onEvent: (event) => seen.push(event) }));
    const run = record(dispatcher.run(calls));
    await vi.advanceTimersByTimeAsync(100);
    expect(done.status).toBe('resolved');
    expect(done.value?.map((r) => r.content)).toEqual(['m ok', 'm ok']);
    expect(seen.map((e) => e.type)).toEqual([
      'batch-start',
      'wave-start',
      'call-start',
      'call-end',
      'wave-end',
      'wave-start',
      'call-start',
      'call-end',
      'wave-end',
      'batch-end',
    ]);
    expect(seen.map((e) => e.type)).toEqual(run.events.map((e) => e.type));
  });

  it('an onEvent that throws fails the dispatch with what it threw and stops the calls', async () => {
    const tool = new MockTool({ name: 'm', delayMs: 100 });
    const dispatcher = new Dispatcher({ registry: new ToolRegistry().add(tool) });
    const bug = new Error('observer bug');
    const done = trackPromise(
      dispatcher.dispatch([call('a', 'm'), call('b', 'm')], {
        onEvent: (event) => {
          if (event.type === 'call-start') throw bug;
        },
      }),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(done.status).toBe('rejected');
    expect(done.error).toBe(bug);
    // It threw on the first `call-start`, which comes before the tool runs: no tool ran.
    expect(tool.calls).toEqual([]);
  });

  it('refuses an onEvent that is not a function, naming it', async () => {
    const dispatcher = new Dispatcher({ registry: registry() });
    const done = trackPromise(dispatcher.dispatch([call('a', 'm')], { onEvent: 'log' as never }));
    await vi.advanceTimersByTimeAsync(0);
    expect((done.error as DispatchError).message).toBe(
      'Expected `onEvent` to be a function, got `"log"` (string)',
    );
  });
});
