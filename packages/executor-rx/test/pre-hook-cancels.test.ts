import { ToolRegistry } from '@toolwaves/core';
import { MockTool, trackPromise } from '@toolwaves/core/testing';
import { from, Subject, takeUntil } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { type DispatchError, Dispatcher, type PreHook } from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { ends, record, starts } from './recording.js';
import { call } from './tool-call.js';

useFakeClock();

/**
 * A synchronous pre hook that cancels the dispatch and then answers `allow` must not get the
 * tool run: the attempt is no longer current once the hook returns.
 */
describe.each(['sequential', 'parallel', 'eager'] as const)(
  'a pre hook that cancels, then allows (%s)',
  (mode) => {
    it('the smallest case: one call, the caller signal aborted inside the hook', async () => {
      const tool = new MockTool({ name: 'm', concurrencySafe: true });
      const post = vi.fn();
      const controller = new AbortController();
      const pre: PreHook = () => {
        controller.abort();
        return { action: 'allow' };
      };
      const dispatcher = new Dispatcher({
        registry: new ToolRegistry().add(tool),
        mode,
        hooks: { pre: [pre], post: [post] },
      });
      const run = record(dispatcher.run([call('a', 'm')], { signal: controller.signal }));
      await vi.advanceTimersByTimeAsync(100);
      expect(run.status).toBe('error');
      expect((run.error as DispatchError).code).toBe('cancelled');
      expect(tool.calls).toEqual([]);
      expect(post).not.toHaveBeenCalled();
      expect(dispatcher.health.stats('m')).toEqual({
        successes: 0,
        failures: 0,
        latencyMs: undefined,
      });
      // The attempt never started its tool: no call-start, so no call-end owed.
      expect(starts(run.events)).toEqual([]);
      expect(ends(run.events)).toEqual([]);
    });

    it('the hook of the third call cancels: it never runs, the one in flight is stopped', async () => {
      const tool = new MockTool({ name: 'm', delayMs: 100, concurrencySafe: true });
      const controller = new AbortController();
      const pre: PreHook = ({ call: c }) => {
        if (c.id === 'c') controller.abort();
        return undefined;
      };
      const dispatcher = new Dispatcher({
        registry: new ToolRegistry().add(tool),
        mode,
        maxConcurrency: 2,
        hooks: { pre: [pre] },
      });
      const done = trackPromise(
        dispatcher.dispatch([call('a', 'm'), call('b', 'm'), call('c', 'm')], {
          signal: controller.signal,
        }),
      );
      await vi.advanceTimersByTimeAsync(1_000);
      expect(done.status).toBe('rejected');
      expect((done.error as DispatchError).code).toBe('cancelled');
      expect(tool.calls.map((c) => c.toolCallId)).not.toContain('c');
      expect(tool.calls.every((c) => c.outcome !== 'running')).toBe(true);
    });

    it('unsubscribing from run() inside the hook: the tool never runs', async () => {
      const tool = new MockTool({ name: 'm', concurrencySafe: true });
      const stop = new Subject<void>();
      const pre: PreHook = () => {
        stop.next();
        return { action: 'allow' };
      };
      const dispatcher = new Dispatcher({
        registry: new ToolRegistry().add(tool),
        mode,
        hooks: { pre: [pre] },
      });
      const run = record(dispatcher.run([call('a', 'm'), call('b', 'm')]).pipe(takeUntil(stop)));
      await vi.advanceTimersByTimeAsync(100);
      expect(run.status).toBe('complete');
      expect(tool.calls).toEqual([]);
      expect(dispatcher.health.stats('m').successes).toBe(0);
    });
  },
);

describe('a pre hook that cancels, then allows, in a stream', () => {
  it('the tool of the streamed call never runs', async () => {
    const tool = new MockTool({ name: 'm', concurrencySafe: true });
    const controller = new AbortController();
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(tool),
      mode: 'eager',
      hooks: {
        pre: [
          () => {
            controller.abort();
            return { action: 'allow' };
          },
        ],
      },
    });
    const done = trackPromise(
      dispatcher.dispatchStream(from([call('a', 'm'), call('b', 'm')]), {
        signal: controller.signal,
      }),
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(done.status).toBe('rejected');
    expect((done.error as DispatchError).code).toBe('cancelled');
    expect(tool.calls).toEqual([]);
  });
});
