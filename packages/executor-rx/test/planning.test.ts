import { ToolRegistry } from '@toolwaves/core';
import { MockTool } from '@toolwaves/core/testing';
import { greedyPlanner, type PlanNode, type Planner, sequentialPlanner } from '@toolwaves/planner';
import { describe, expect, it, vi } from 'vitest';
import { type DispatchError, Dispatcher, ToolHealth } from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { ends, record } from './recording.js';
import { call } from './tool-call.js';

useFakeClock();

const safe = (name = 'safe', delayMs = 100) =>
  new MockTool({ name, delayMs, concurrencySafe: true });

/** A planner that records the nodes it was given and delegates to greedy. */
const spyPlanner = (seen: PlanNode[][]): Planner => ({
  name: 'spy',
  plan: (nodes, options) => {
    seen.push([...nodes]);
    return { ...greedyPlanner().plan(nodes, options), planner: 'spy' };
  },
});

describe('modes and paths', () => {
  it('parallel may be chosen per dispatch, with its own cap', async () => {
    const tool = safe();
    const dispatcher = new Dispatcher({ registry: new ToolRegistry().add(tool) });
    const run = record(
      dispatcher.run([call('a', 'safe'), call('b', 'safe'), call('c', 'safe')], {
        mode: 'parallel',
        maxConcurrency: 2,
      }),
    );
    await vi.advanceTimersByTimeAsync(200);
    expect(run.status).toBe('complete');
    expect(tool.calls.map((c) => c.startedAt)).toEqual([0, 0, 100]);
    const start = run.events[0];
    expect(start?.type === 'batch-start' && [start.mode, start.maxConcurrency]).toEqual([
      'parallel',
      2,
    ]);
    // The third call waited 100 ms for a slot; waitMs says so, durationMs does not count it.
    expect(ends(run.events).map((e) => [e.toolCallId, e.waitMs, e.durationMs])).toEqual([
      ['a', 0, 100],
      ['b', 0, 100],
      ['c', 100, 100],
    ]);
  });

  it('cap 1 runs parallel mode one call at a time through the planned waves', async () => {
    const seen: PlanNode[][] = [];
    const tool = safe();
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(tool),
      mode: 'parallel',
      maxConcurrency: 1,
      planner: spyPlanner(seen),
    });
    const run = record(dispatcher.run([call('a', 'safe'), call('b', 'safe')]));
    await vi.advanceTimersByTimeAsync(200);
    expect(seen).toHaveLength(1);
    const start = run.events[0];
    expect(start?.type === 'batch-start' && start.plan?.waves.map((w) => w.calls)).toEqual([
      [0, 1],
    ]);
    expect(tool.calls.map((c) => [c.startedAt, c.endedAt])).toEqual([
      [0, 100],
      [100, 200],
    ]);
  });

  it('fewer than 2 calls take the sequential path without planning', async () => {
    const seen: PlanNode[][] = [];
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(safe()),
      mode: 'parallel',
      planner: spyPlanner(seen),
    });
    const one = record(dispatcher.run([call('a', 'safe')]));
    const none = record(dispatcher.run([]));
    await vi.advanceTimersByTimeAsync(100);
    expect(seen).toEqual([]);
    const start = one.events[0];
    expect(start?.type === 'batch-start' && start.plan).toEqual({
      planner: 'sequential',
      waves: [{ calls: [0], open: false }],
    });
    expect(start?.type === 'batch-start' && start.explanation[0]?.reason).toBe(
      'sequential: one call per wave, in model order',
    );
    expect(none.events.map((e) => e.type)).toEqual(['batch-start', 'batch-end']);
    const end = none.events[1];
    expect(end?.type === 'batch-end' && end.results).toEqual([]);
  });
});

describe('the planner', () => {
  it('is pluggable and sees latency estimates from the health record', async () => {
    const seen: PlanNode[][] = [];
    const health = new ToolHealth({ alpha: 0.5 });
    const fast = safe('fast', 10);
    const slow = safe('slow', 300);
    const registry = new ToolRegistry().add(fast).add(slow);
    const warmup = new Dispatcher({ registry, health });
    const dispatcher = new Dispatcher({
      registry,
      health,
      mode: 'parallel',
      planner: spyPlanner(seen),
    });
    const batch = [call('a', 'fast'), call('b', 'slow'), call('c', 'other')];
    const first = record(dispatcher.run(batch));
    await vi.advanceTimersByTimeAsync(300);
    expect(first.status).toBe('complete');
    expect(seen[0]?.map((n) => n.estimateMs)).toEqual([undefined, undefined, undefined]);
    const second = record(warmup.run([call('d', 'slow')]));
    await vi.advanceTimersByTimeAsync(300);
    expect(second.status).toBe('complete');
    // Both dispatchers record into the shared health record.
    expect(health.stats('slow')).toEqual({ successes: 2, failures: 0, latencyMs: 300 });
    record(dispatcher.run(batch));
    expect(seen[1]?.map((n) => [n.parallelizable, n.estimateMs])).toEqual([
      [true, 10],
      [true, 300],
      [false, undefined],
    ]);
  });

  it('refuses an invalid custom plan before anything runs', async () => {
    const tool = new MockTool({ name: 'unsafe', delayMs: 10 });
    const lazy: Planner = {
      name: 'lazy',
      plan: (nodes) => ({
        planner: 'lazy',
        waves: [{ calls: nodes.map((n) => n.index), open: true }],
      }),
    };
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(tool),
      mode: 'parallel',
      planner: lazy,
    });
    const run = record(dispatcher.run([call('a', 'unsafe'), call('b', 'unsafe')]));
    expect(run.status).toBe('error');
    const error = run.error as DispatchError;
    expect(error.code).toBe('invalid_plan');
    expect(error.violations).toEqual([
      'call 0 is not concurrency-safe but shares wave 1 with call 1 (rule 2)',
      'call 1 is not concurrency-safe but shares wave 1 with call 0 (rule 2)',
    ]);
    expect(error.message).toBe(
      'Planner `lazy` returned a plan that breaks the rules: call 0 is not concurrency-safe but shares wave 1 with call 1 (rule 2); call 1 is not concurrency-safe but shares wave 1 with call 0 (rule 2)',
    );
    expect(run.events).toEqual([]);
    expect(tool.calls).toEqual([]);
    await expect(
      dispatcher.dispatch([call('a', 'unsafe'), call('b', 'unsafe')]),
    ).rejects.toMatchObject({ code: 'invalid_plan' });
  });

  it('refuses a plan that drops a call, and a planner that throws', async () => {
    const registry = new ToolRegistry().add(safe());
    const dropping = new Dispatcher({
      registry,
      mode: 'parallel',
      planner: {
        name: 'dropping',
        plan: () => ({ planner: 'dropping', waves: [{ calls: [0], open: true }] }),
      },
    });
    await expect(dropping.dispatch([call('a', 'safe'), call('b', 'safe')])).rejects.toMatchObject({
      code: 'invalid_plan',
      violations: ['call 1 is in no wave (rule 1)'],
    });
    const cause = new Error('no idea');
    const throwing = new Dispatcher({
      registry,
      mode: 'parallel',
      planner: {
        name: 'throwing',
        plan: () => {
          throw cause;
        },
      },
    });
    await expect(throwing.dispatch([call('a', 'safe'), call('b', 'safe')])).rejects.toMatchObject({
      code: 'invalid_plan',
      message: 'Planner `throwing` failed: no idea',
      cause,
    });
  });

  it('checks rule 5 for planners that promise order (keepsOrder)', async () => {
    const registry = new ToolRegistry().add(safe()).add(new MockTool({ name: 'unsafe' }));
    const fake: Planner = {
      name: 'fake-ordered',
      keepsOrder: true,
      plan: (nodes) => ({ ...greedyPlanner().plan(nodes), planner: 'ordered' }),
    };
    const dispatcher = new Dispatcher({ registry, mode: 'parallel', planner: fake });
    await expect(
      dispatcher.dispatch([call('a', 'safe'), call('b', 'unsafe'), call('c', 'safe')]),
    ).rejects.toMatchObject({ code: 'invalid_plan' });
    const honest = new Dispatcher({ registry, mode: 'parallel', planner: sequentialPlanner() });
    const run = record(honest.run([call('a', 'safe'), call('b', 'unsafe'), call('c', 'safe')]));
    await vi.advanceTimersByTimeAsync(200);
    expect(run.status).toBe('complete');
  });
});
