import { getEventListeners } from 'node:events';
import { fnTool, ToolRegistry } from '@toolwaves/core';
import { trackPromise } from '@toolwaves/core/testing';
import { describe, expect, it, vi } from 'vitest';
import { type DispatchError, Dispatcher } from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { call } from './tool-call.js';

useFakeClock();

/** Like an MCP client: one abort listener per request, never removed. */
const leakyTool = (signals: AbortSignal[]) =>
  fnTool({
    name: 'leaky',
    description: 'adds a listener to its signal and never removes it',
    concurrencySafe: true,
    execute: async (input: unknown, context) => {
      signals.push(context.signal);
      context.signal.addEventListener('abort', () => undefined);
      await new Promise((resolve) => setTimeout(resolve, (input as { ms: number }).ms));
      return 'done';
    },
  });

describe.each(['sequential', 'parallel', 'eager'] as const)(
  'each call has its own signal (%s)',
  (mode) => {
    it('listeners left by 11 calls do not pile up on the batch signal', async () => {
      const signals: AbortSignal[] = [];
      const dispatcher = new Dispatcher({
        registry: new ToolRegistry().add(leakyTool(signals)),
        mode,
      });
      const controller = new AbortController();
      const before = getEventListeners(controller.signal, 'abort').length;
      const calls = Array.from({ length: 11 }, (_, i) => call(`c${i}`, 'leaky', { ms: 10 }));
      const done = trackPromise(dispatcher.dispatch(calls, { signal: controller.signal }));
      await vi.advanceTimersByTimeAsync(200);
      expect(done.status).toBe('resolved');
      expect(getEventListeners(controller.signal, 'abort').length).toBe(before);
      expect(new Set(signals).size).toBe(11);
      expect(signals.map((signal) => getEventListeners(signal, 'abort').length)).toEqual(
        Array(11).fill(1),
      );
    });

    it('a finished call is not aborted by a later cancel; the one in flight is', async () => {
      const signals: AbortSignal[] = [];
      const dispatcher = new Dispatcher({
        registry: new ToolRegistry().add(leakyTool(signals)),
        mode,
      });
      const controller = new AbortController();
      const done = trackPromise(
        dispatcher.dispatch(
          [call('quick', 'leaky', { ms: 10 }), call('slow', 'leaky', { ms: 1_000 })],
          {
            signal: controller.signal,
          },
        ),
      );
      await vi.advanceTimersByTimeAsync(50);
      expect(signals).toHaveLength(2);
      controller.abort(new Error('user pressed stop'));
      await vi.advanceTimersByTimeAsync(0);
      expect(done.status).toBe('rejected');
      expect((done.error as DispatchError).code).toBe('cancelled');
      expect(signals[0]?.aborted).toBe(false);
      expect(signals[1]?.aborted).toBe(true);
      expect(signals[1]?.reason).toMatchObject({ code: 'cancelled' });
    });
  },
);
