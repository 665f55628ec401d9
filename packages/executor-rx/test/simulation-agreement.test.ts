// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { abortableDelay, fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import {
  type Access,
  type EagerPriority,
  makespan,
  type PlanNode,
  simulateEager,
} from '@toolwaves/planner';
import fc from 'fast-check';
import { describe, it, vi } from 'vitest';
import { Dispatcher, ToolHealth } from '../src/index.js';
import { arrivingCalls } from './arriving-calls.js';
import { fakeNow, useFakeClock } from './fake-clock.js';
import { record } from './recording.js';

useFakeClock();

/** What one generated call declares. */
interface Declared {
  readonly safe: boolean;
  readonly access: readonly Access[];
  /** Whether the call arrives later than the one before it (streams). */
  readonly later: boolean;
}

const declaredArb: fc.Arbitrary<Declared> = fc.record({
  safe: fc.integer({ min: 0, max: 5 }).map((n) => n > 0),
  access: fc.array(
    fc.record({
      key: fc.constantFrom('fs:/a', 'fs:/a/b', 'fs:/b'),
      mode: fc.constantFrom<'read' | 'write'>('read', 'write'),
    }),
    { maxLength: 2 },
  ),
  later: fc.boolean(),
});

/**
 * Durations are distinct powers of two (and arrival gaps larger ones): every moment of a
 * schedule is then a sum of distinct powers, so no two calls end at the same moment and no call
 * arrives when one ends. Ties at one moment are where an executor running one timer after
 * another and a simulator stepping whole moments may legitimately pick differently.
 */
const scenarioArb = fc.array(declaredArb, { minLength: 1, maxLength: 9 }).chain((declared) =>
  fc.record({
    declared: fc.constant(declared),
    durations: fc
      .shuffledSubarray(
        declared.map((_, k) => 2 ** k),
        { minLength: declared.length, maxLength: declared.length },
      )
      .map((powers) => powers.map((power) => power * 4)),
    cap: fc.integer({ min: 1, max: 4 }),
    priority: fc.constantFrom<EagerPriority>('model-order', 'longest-first'),
  }),
);

/**
 * Arrival times of a stream: a call marked `later` arrives after a new, larger power of two,
 * the others with the call before. Calls that arrive at one moment arrive one after another
 * (one timer each), so in model order; longest-first would rank them together, so with it every
 * call arrives at its own moment.
 */
const arrivalsOf = (declared: readonly Declared[], priority: EagerPriority): number[] => {
  let at = 0;
  return declared.map((call, k) => {
    if (call.later || priority === 'longest-first') at += 4 * 2 ** (declared.length + k);
    return at;
  });
};

/** One tool per call (named by its index), with the call's declarations and duration. */
function setUp(declared: readonly Declared[], durations: readonly number[]) {
  const startMs: number[] = [];
  const endMs: number[] = [];
  // Times from the scenario's start (the fake clock runs on across generated scenarios).
  const origin = fakeNow();
  const registry = new ToolRegistry();
  const health = new ToolHealth();
  declared.forEach((call, k) => {
    registry.add(
      fnTool({
        name: `t${k}`,
        description: `call ${k}`,
        concurrencySafe: call.safe,
        access: call.access,
        execute: async (_input, context) => {
          startMs[k] = fakeNow() - origin;
          await abortableDelay(durations[k]!, context.signal);
          endMs[k] = fakeNow() - origin;
          return 'ok';
        },
      }),
    );
    // The health record knows each tool's duration: longest-first sees the simulator's estimates.
    health.record({ toolName: `t${k}`, ok: true, durationMs: durations[k]! });
  });
  const calls: ToolCall[] = declared.map((_, k) => ({ id: `c${k}`, name: `t${k}`, input: {} }));
  // The simulator's nodes, written from the declarations (not from the registry).
  const nodes: PlanNode[] = declared.map((call, k) => ({
    index: k,
    parallelizable: call.safe,
    ...(call.safe ? { access: call.access } : {}),
    estimateMs: durations[k]!,
  }));
  return { registry, health, calls, nodes, startMs, endMs };
}

describe('the executor in virtual time agrees with the planner simulator', () => {
  it("mode 'eager': every call starts and ends when simulateEager says", async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ declared, durations, cap, priority }) => {
        const { registry, health, calls, nodes, startMs, endMs } = setUp(declared, durations);
        const dispatcher = new Dispatcher({
          registry,
          health,
          mode: 'eager',
          maxConcurrency: cap,
          priority,
        });
        const run = record(dispatcher.run(calls));
        await vi.runAllTimersAsync();
        assert.equal(run.status, 'complete');
        assert.deepEqual(
          { startMs, endMs },
          simulateEager(nodes, { maxConcurrency: cap, priority }),
        );
      }),
      { numRuns: 400 },
    );
  });

  it('streams: every call starts and ends when simulateEager with arrivalMs says', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ declared, durations, cap, priority }) => {
        const { registry, health, calls, nodes, startMs, endMs } = setUp(declared, durations);
        const arrivalMs = arrivalsOf(declared, priority);
        const source = arrivingCalls(calls, arrivalMs);
        const dispatcher = new Dispatcher({
          registry,
          health,
          mode: 'parallel',
          maxConcurrency: cap,
          priority,
          // simulateEager starts every call as its dependencies allow: no call held back
          whileStreaming: 'all',
        });
        const run = record(dispatcher.runStream(source));
        await vi.runAllTimersAsync();
        assert.equal(run.status, 'complete');
        assert.deepEqual(
          { startMs, endMs },
          simulateEager(nodes, { maxConcurrency: cap, priority, arrivalMs }),
        );
      }),
      { numRuns: 400 },
    );
  });

  it('sequential streams: one call at a time as they arrive, as simulateEager with one slot', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ declared, durations }) => {
        const { registry, health, calls, nodes, startMs, endMs } = setUp(declared, durations);
        const arrivalMs = arrivalsOf(declared, 'model-order');
        const source = arrivingCalls(calls, arrivalMs);
        const dispatcher = new Dispatcher({
          registry,
          health,
          mode: 'sequential',
          whileStreaming: 'all', // as simulateEager: no call held back
        });
        const run = record(dispatcher.runStream(source));
        await vi.runAllTimersAsync();
        assert.equal(run.status, 'complete');
        assert.deepEqual(
          { startMs, endMs },
          simulateEager(nodes, { maxConcurrency: 1, arrivalMs }),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('waves: the batch takes the makespan of its plan', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ declared, durations, cap }) => {
        const { registry, health, calls, nodes } = setUp(declared, durations);
        const dispatcher = new Dispatcher({
          registry,
          health,
          mode: 'parallel',
          maxConcurrency: cap,
        });
        const run = record(dispatcher.run(calls));
        await vi.runAllTimersAsync();
        assert.equal(run.status, 'complete');
        const first = run.events[0];
        const last = run.events.at(-1);
        if (first?.type !== 'batch-start' || first.plan === undefined) throw new Error('no plan');
        if (last?.type !== 'batch-end') throw new Error('no batch-end');
        assert.equal(
          last.durationMs,
          makespan(nodes, first.plan, { maxConcurrency: first.maxConcurrency }),
        );
      }),
      { numRuns: 300 },
    );
  });
});
