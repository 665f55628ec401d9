// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { abortableDelay, ToolRegistry } from '@toolwaves/core';
import fc from 'fast-check';
import { it, vi } from 'vitest';
import { type DispatchEvent, Dispatcher, type ToolExecute } from '../src/index.js';
import { arrivingCalls } from './arriving-calls.js';
import { fakeNow, useFakeClock } from './fake-clock.js';
import {
  abortAtOp,
  arrivalTimes,
  type GeneratedOp,
  generatedOpArb,
  opCalls,
  opTool,
} from './generated-ops.js';

useFakeClock();

/** A generated call, and whether the turn gives its implementation (`run(call, execute)`). */
type Op = GeneratedOp & { readonly given: boolean };

const opArb: fc.Arbitrary<Op> = fc
  .tuple(generatedOpArb(['ok', 'ok', 'ok', 'throw', 'report', 'abort']), fc.boolean())
  .map(([op, given]) => ({ ...op, given }));

const scenarioArb = fc.record({
  ops: fc.array(opArb, { maxLength: 8 }),
  cap: fc.integer({ min: 1, max: 4 }),
  mode: fc.constantFrom('eager', 'parallel', 'sequential') as fc.Arbitrary<
    'eager' | 'parallel' | 'sequential'
  >,
  priority: fc.constantFrom('model-order', 'longest-first') as fc.Arbitrary<
    'model-order' | 'longest-first'
  >,
  cancelAt: fc.option(fc.integer({ min: 0, max: 80 }), { freq: 3, nil: undefined }),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer S> ? S : never;

/** What one run did, on the fake clock: tool runs, events, and how each call was answered. */
interface Observed {
  readonly toolRuns: string[];
  readonly events: string[];
  readonly answers: string[];
}

function setUp(scenario: Scenario) {
  const { ops, cap, mode, priority } = scenario;
  const toolRuns: string[] = [];
  const t0 = fakeNow();
  const now = (): number => fakeNow() - t0;
  const op = (input: unknown): Op => ops[(input as { i: number }).i]!;
  const impl: ToolExecute = async (input, context) => {
    const i = (input as { i: number }).i;
    toolRuns.push(`start ${i} at ${now()}`);
    try {
      await abortableDelay(op(input).ms, context.signal);
    } finally {
      toolRuns.push(`end ${i} at ${now()}`);
    }
    if (op(input).end === 'throw') throw new Error(`boom ${i}`);
    return { content: `r${i}`, isError: op(input).end === 'report' };
  };
  const registry = new ToolRegistry().add(opTool(ops, impl));
  const dispatcher = new Dispatcher({
    registry,
    mode,
    maxConcurrency: cap,
    priority,
    hooks: { pre: [abortAtOp(ops)] },
  });
  const calls = opCalls(ops);
  const arrivalMs = arrivalTimes(ops, true);
  const controller = new AbortController();
  if (scenario.cancelAt !== undefined) setTimeout(() => controller.abort(), scenario.cancelAt);
  const events: string[] = [];
  const onEvent = (event: DispatchEvent): void => {
    const what =
      event.type === 'call-start' || event.type === 'call-end'
        ? `${event.type} ${event.toolCallId}#${event.attempt}${event.type === 'call-end' ? ` ${event.outcome}` : ` waited ${event.waitedFor?.join(',')}`}`
        : event.type;
    events.push(`${what} at ${now()}`);
  };
  return { dispatcher, calls, arrivalMs, controller, toolRuns, events, onEvent, impl };
}

const answerOf = (settled: PromiseSettledResult<unknown>): string =>
  settled.status === 'fulfilled'
    ? JSON.stringify(settled.value)
    : `rejected ${(settled.reason as { code?: string }).code}`;

async function viaStream(scenario: Scenario): Promise<Observed> {
  const { dispatcher, calls, arrivalMs, controller, toolRuns, events, onEvent } = setUp(scenario);
  const results = dispatcher.dispatchStream(arrivingCalls(calls, arrivalMs), {
    signal: controller.signal,
    onEvent,
  });
  const settled = results.then(
    (all) => calls.map((_, i) => answerOf({ status: 'fulfilled', value: all[i] })),
    (error: unknown) => calls.map(() => answerOf({ status: 'rejected', reason: error })),
  );
  await vi.runAllTimersAsync();
  return { toolRuns, events, answers: await settled };
}

async function viaTurn(scenario: Scenario): Promise<Observed> {
  const { dispatcher, calls, arrivalMs, controller, toolRuns, events, onEvent, impl } =
    setUp(scenario);
  const turn = dispatcher.openTurn({ signal: controller.signal, onEvent });
  const answers: Promise<PromiseSettledResult<unknown>>[] = [];
  const closed = turn.close.bind(turn);
  if (calls.length === 0) void closed().catch(() => undefined);
  calls.forEach((call, k) => {
    setTimeout(() => {
      const given = scenario.ops[k]!.given ? impl : undefined;
      answers[k] = Promise.allSettled([turn.run(call, given)]).then(([only]) => only!);
      if (k === calls.length - 1) void closed().catch(() => undefined);
    }, arrivalMs[k]);
  });
  await vi.runAllTimersAsync();
  // A call the turn never reached (cancelled before its `run`) is rejected like the others.
  const settled = await Promise.all(answers);
  const failure = settled.find((s) => s.status === 'rejected');
  return {
    toolRuns,
    events,
    answers: calls.map((_, k) =>
      failure !== undefined ? answerOf(failure) : answerOf(settled[k]!),
    ),
  };
}

it('a turn fed calls at given times does what dispatchStream does with them, call by call', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (scenario) => {
      const stream = await viaStream(scenario);
      const turn = await viaTurn(scenario);
      assert.deepEqual(turn.toolRuns, stream.toolRuns);
      assert.deepEqual(turn.events, stream.events);
      assert.deepEqual(turn.answers, stream.answers);
    }),
    { numRuns: 400 },
  );
});
