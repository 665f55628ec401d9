import { ToolRegistry } from '@toolwaves/core';
import { MockTool, trackPromise } from '@toolwaves/core/testing';
import { greedyPlanner, optimalPlanner, type Planner } from '@toolwaves/planner';
import { describe, expect, it, vi } from 'vitest';
import { Dispatcher, ToolHealth } from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { record } from './recording.js';
import { call } from './tool-call.js';

useFakeClock();

/**
 * slow = 100 ms, fast = 10 ms, all keyless and safe. Under a cap of 2, the batch
 * [slow, fast, fast, slow] in one wave takes 120 ms (the second slow call waits for a slot);
 * split as [slow, slow] then [fast, fast] it takes 110 ms. Only a planner that knows the
 * durations can see that, and the durations come from the health record of earlier dispatches.
 */
async function runOnObservedLatencies(planner: Planner) {
  const slow = new MockTool({ name: 'slow', delayMs: 100, concurrencySafe: true });
  const fast = new MockTool({ name: 'fast', delayMs: 10, concurrencySafe: true });
  const health = new ToolHealth();
  const dispatcher = new Dispatcher({
    registry: new ToolRegistry().add(slow).add(fast),
    mode: 'parallel',
    maxConcurrency: 2,
    planner,
    health,
  });
  const warmUp = trackPromise(dispatcher.dispatch([call('w1', 'slow'), call('w2', 'fast')]));
  await vi.advanceTimersByTimeAsync(100);
  expect(warmUp.status).toBe('resolved');
  expect([health.estimateMs('slow'), health.estimateMs('fast')]).toEqual([100, 10]);

  const run = record(
    dispatcher.run([call('a', 'slow'), call('b', 'fast'), call('c', 'fast'), call('d', 'slow')]),
  );
  await vi.advanceTimersByTimeAsync(200);
  expect(run.status).toBe('complete');
  const start = run.events.find((event) => event.type === 'batch-start');
  const end = run.events.find((event) => event.type === 'batch-end');
  return {
    waves: start?.type === 'batch-start' ? start.plan?.waves.map((wave) => wave.calls) : [],
    elapsed: span([...slow.calls, ...fast.calls].filter((c) => !c.toolCallId.startsWith('w'))),
    results: end?.type === 'batch-end' ? end.results.map((result) => result.toolCallId) : [],
  };
}

/** From the first start to the last end of the given calls, on the virtual clock. */
function span(calls: readonly { startedAt: number; endedAt: number | undefined }[]): number {
  return (
    Math.max(...calls.map((c) => c.endedAt ?? Number.NaN)) -
    Math.min(...calls.map((c) => c.startedAt))
  );
}

describe('optimalPlanner on the latencies the dispatcher observed', () => {
  it('plans with the health estimates and beats greedy in virtual time', async () => {
    const greedy = await runOnObservedLatencies(greedyPlanner());
    expect(greedy.waves).toEqual([[0, 1, 2, 3]]);
    expect(greedy.elapsed).toBe(120);

    const optimal = await runOnObservedLatencies(optimalPlanner());
    expect(optimal.elapsed).toBe(110);
    expect(optimal.waves).toHaveLength(2);
    expect(optimal.results).toEqual(['a', 'b', 'c', 'd']);
  });
});
