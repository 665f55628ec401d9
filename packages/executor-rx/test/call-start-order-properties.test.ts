// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import {
  abortableDelay,
  type CoordinationGrant,
  type CoordinationRequest,
  type Coordinator,
  ToolRegistry,
} from '@toolwaves/core';
import fc from 'fast-check';
import { it, vi } from 'vitest';
import { type DispatchEvent, Dispatcher } from '../src/index.js';
import { arrivingCalls } from './arriving-calls.js';
import { useFakeClock } from './fake-clock.js';
import { abortAtOp, arrivalTimes, generatedOpArb, opCalls, opTool } from './generated-ops.js';
import { retryOnce } from './recovery-strategies.js';

useFakeClock();

/** A coordinator that grants after `delayMs` on the fake clock, and gives up when asked to. */
const delayedCoordinator = (delayMs: number): Coordinator => ({
  acquire: (request: CoordinationRequest) =>
    new Promise<CoordinationGrant>((resolve, reject) => {
      const timer = setTimeout(
        () => resolve({ lost: new AbortController().signal, release: () => Promise.resolve() }),
        delayMs,
      );
      request.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(request.signal.reason);
      });
    }),
});

type Entry = 'run' | 'dispatch + onEvent' | 'stream' | 'turn';

const scenarioArb = fc.record({
  ops: fc.array(generatedOpArb(['ok', 'ok', 'ok', 'throw', 'report', 'abort']), { maxLength: 8 }),
  cap: fc.integer({ min: 1, max: 3 }),
  mode: fc.constantFrom('sequential', 'parallel', 'eager') as fc.Arbitrary<
    'sequential' | 'parallel' | 'eager'
  >,
  entry: fc.constantFrom<Entry>('run', 'dispatch + onEvent', 'stream', 'turn'),
  retryDelay: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
  timeoutMs: fc.option(fc.integer({ min: 3, max: 40 }), { nil: undefined }),
  fleetDelay: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
  cancelAt: fc.option(fc.integer({ min: 0, max: 80 }), { freq: 3, nil: undefined }),
});

it('every execution of every attempt happens after its call-start reached the observer and before its call-end', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (scenario) => {
      const { ops, cap, mode, entry } = scenario;
      // What the observer saw and what the tools did, in one order.
      const log: string[] = [];
      const registry = new ToolRegistry().add(
        opTool(ops, async ({ i }, context) => {
          log.push(`exec c${i}#${context.attempt}`);
          await abortableDelay(ops[i]!.ms, context.signal);
          if (ops[i]!.end === 'throw') throw new Error(`boom ${i}`);
          return { content: `r${i}`, isError: ops[i]!.end === 'report' };
        }),
      );
      const dispatcher = new Dispatcher({
        registry,
        mode,
        maxConcurrency: cap,
        hooks: { pre: [abortAtOp(ops)], post: [() => undefined] },
        ...(scenario.retryDelay === undefined
          ? {}
          : { recovery: { strategy: retryOnce(scenario.retryDelay) } }),
        ...(scenario.timeoutMs === undefined ? {} : { timeoutMs: scenario.timeoutMs }),
        ...(scenario.fleetDelay === undefined
          ? {}
          : { coordinator: delayedCoordinator(scenario.fleetDelay) }),
      });
      const observe = (event: DispatchEvent): void => {
        if (event.type === 'call-start') log.push(`start ${event.toolCallId}#${event.attempt}`);
        if (event.type === 'call-end') log.push(`end ${event.toolCallId}#${event.attempt}`);
      };
      const controller = new AbortController();
      if (scenario.cancelAt !== undefined) setTimeout(() => controller.abort(), scenario.cancelAt);
      const signal = controller.signal;
      const calls = opCalls(ops);
      const arrivalMs = arrivalTimes(ops, true);
      const settled: Promise<unknown>[] = [];
      // A cancelled batch rejects its promises while the timers run, before allSettled below
      // looks at them: each gets its handler the moment it is made.
      const keep = (promise: Promise<unknown>): void => {
        promise.catch(() => undefined);
        settled.push(promise);
      };
      if (entry === 'run') {
        dispatcher.run(calls, { signal }).subscribe({ next: observe, error: () => undefined });
      } else if (entry === 'dispatch + onEvent') {
        keep(dispatcher.dispatch(calls, { signal, onEvent: observe }));
      } else if (entry === 'stream') {
        dispatcher
          .runStream(arrivingCalls(calls, arrivalMs), { signal })
          .subscribe({ next: observe, error: () => undefined });
      } else {
        const turn = dispatcher.openTurn({ signal, onEvent: observe });
        if (calls.length === 0) keep(turn.close());
        calls.forEach((call, k) => {
          setTimeout(() => {
            keep(turn.run(call));
            if (k === calls.length - 1) keep(turn.close());
          }, arrivalMs[k]);
        });
      }
      await vi.runAllTimersAsync();
      await Promise.allSettled(settled);

      for (const [at, entry] of log.entries()) {
        if (!entry.startsWith('exec ')) continue;
        const key = entry.slice('exec '.length);
        const startAt = log.indexOf(`start ${key}`);
        const endAt = log.indexOf(`end ${key}`);
        // Its call-start reached the observer first, its call-end came after (every start is ended).
        assert.ok(startAt >= 0, `${key} ran before its call-start: ${log.join(', ')}`);
        assert.ok(startAt < at, `expected startAt (${startAt}) < at (${at})`);
        assert.ok(endAt > at, `${key} has no call-end after it ran: ${log.join(', ')}`);
        // One execution per attempt.
        assert.equal(log.indexOf(entry), at);
      }
    }),
    { numRuns: 400 },
  );
});
