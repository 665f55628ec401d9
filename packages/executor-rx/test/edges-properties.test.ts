// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import type { ToolCall, ToolResult } from '@toolwaves/core';
import fc from 'fast-check';
import { type Observable, tap } from 'rxjs';
import { expect, it, vi } from 'vitest';
import { type DispatchEvent, Dispatcher, type FailurePolicy } from '../src/index.js';
import { arrivingCalls } from './arriving-calls.js';
import {
  type EdgedOp,
  type EdgedRun,
  edgedCalls,
  edgedOpsArb,
  edgedRegistry,
  referenceEdgePairs,
} from './edge-arbitraries.js';
import { useFakeClock } from './fake-clock.js';
import { arrivalTimes, mustOrder } from './generated-ops.js';
import { record } from './recording.js';

useFakeClock();

/** Every way calls reach a Dispatcher, with the mode it is given. */
const ENTRIES = [
  'dispatch waves',
  'run waves',
  'run eager',
  'dispatch eager',
  'run sequential',
  'runStream',
  'dispatchStream',
  'turn',
] as const;
type Entry = (typeof ENTRIES)[number];

const scenarioArb = fc.record({
  ops: edgedOpsArb(8),
  cap: fc.integer({ min: 1, max: 4 }),
  entry: fc.constantFrom(...ENTRIES),
  onFailure: fc.constantFrom<FailurePolicy>('continue', 'skip-dependents', 'stop'),
});

const modeOf = (entry: Entry) =>
  entry.includes('waves') ? 'parallel' : entry.includes('sequential') ? 'sequential' : 'eager';

/** Runs the scenario to its end on the fake clock: its events, results and tool runs. */
async function runScenario(ops: EdgedOp[], cap: number, entry: Entry, onFailure: FailurePolicy) {
  let seq = 0;
  const next = () => seq++;
  const runs: EdgedRun[] = [];
  const dispatcher = new Dispatcher({
    registry: edgedRegistry({ ops, runs, next }),
    mode: modeOf(entry),
    maxConcurrency: cap,
    onFailure,
    modelOrdering: true,
  });
  const calls = edgedCalls(ops);
  const streamed = entry === 'runStream' || entry === 'dispatchStream' || entry === 'turn';
  const arrivalMs = arrivalTimes(ops, streamed);
  const events: DispatchEvent[] = [];
  const endedSeq: number[] = [];
  const onEvent = (event: DispatchEvent): void => {
    events.push(event);
    if (event.type === 'call-skipped' || (event.type === 'call-end' && event.result)) {
      endedSeq[event.index] = next();
    }
  };
  let results: ToolResult[] | undefined;
  const settle = (promise: Promise<ToolResult[]>) =>
    promise.then((answer) => {
      results = answer;
    });
  // Events seen as they happen (on the same sequence as the tool runs), results at the end.
  const observe = (run: Observable<DispatchEvent>) => {
    const recording = record(run.pipe(tap(onEvent)));
    return () => {
      const end = recording.events.at(-1);
      if (end?.type === 'batch-end') results = [...end.results];
    };
  };
  let collect: (() => void) | undefined;
  if (entry === 'dispatch waves' || entry === 'dispatch eager') {
    void settle(dispatcher.dispatch(calls, { onEvent }));
  } else if (entry === 'dispatchStream') {
    void settle(dispatcher.dispatchStream(arrivingCalls(calls, arrivalMs), { onEvent }));
  } else if (entry === 'runStream') {
    collect = observe(dispatcher.runStream(arrivingCalls(calls, arrivalMs)));
  } else if (entry === 'turn') {
    const turn = dispatcher.openTurn({ onEvent });
    const answers: Promise<ToolResult>[] = [];
    const close = () =>
      void turn.close().then(async () => {
        results = await Promise.all(answers);
      });
    calls.forEach((call: ToolCall, k) => {
      setTimeout(() => {
        answers.push(turn.run(call));
        if (k === calls.length - 1) close();
      }, arrivalMs[k]);
    });
    if (calls.length === 0) close();
  } else {
    collect = observe(dispatcher.run(calls));
  }
  await vi.runAllTimersAsync();
  collect?.();
  if (results === undefined) throw new Error(`${entry}: the batch did not complete`);
  return { events, results, runs, calls, endedSeq };
}

it('ordering edges are kept in every mode and entry point, under every failure policy', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async ({ ops, cap, entry, onFailure }) => {
      const scenario = await runScenario(ops, cap, entry, onFailure);
      const { events, results, runs, calls, endedSeq } = scenario;
      const pairs = referenceEdgePairs(ops);
      const runOf = (i: number) => runs.find((run) => run.index === i);

      // Each call ran at most once; a call that follows another started after that one ended.
      for (let i = 0; i < ops.length; i++) {
        assert.ok(
          runs.filter((run) => run.index === i).length <= 1,
          `expected runs.filter((run) => run.index === i).length <= 1`,
        );
      }
      for (const [earlier, later] of pairs) {
        const before = runOf(earlier);
        const after = runOf(later);
        if (before !== undefined && after !== undefined) {
          assert.ok(
            before.endSeq! < after.startSeq,
            `expected before.endSeq (${before.endSeq!}) < after.startSeq (${after.startSeq})`,
          );
        }
        // A call whose prerequisite never ran (skipped, stopped) did not run before it either.
        if (before === undefined && after !== undefined) {
          assert.equal(onFailure, 'continue');
        }
      }

      // Every call is answered in its slot; the events name each call's edges.
      assert.deepEqual(
        results.map((result) => result.toolCallId),
        calls.map((call) => call.id),
      );
      for (const event of events) {
        if (event.type !== 'call-start' && event.type !== 'call-skipped') continue;
        const mine = pairs.filter(([, later]) => later === event.index);
        const named = mine.map(([call, , source]) => ({ call, source }));
        assert.deepEqual(event.edges ?? [], named);
      }

      // The failure policies: which calls ran, plainly from the scenario.
      const failed = (i: number) => ops[i]!.end !== 'ok';
      if (onFailure === 'continue') {
        assert.deepEqual(
          runs.map((run) => run.index).sort((a, b) => a - b),
          ops.map((_, i) => i),
        );
      }
      if (onFailure === 'skip-dependents') {
        // Dependencies are the rules' (as the plan or the order of arrival ran them) and the
        // edges; here only the edges are checked: a failed or skipped prerequisite skips a call.
        const bad: boolean[] = [];
        ops.forEach((_, j) => {
          const prerequisiteBad = pairs.some(([i, later]) => later === j && bad[i] === true);
          if (prerequisiteBad) {
            assert.equal(runOf(j), undefined);
            assert.equal(results[j]!.isError, true);
            expect(results[j]!.content).toMatch(
              /did not run: it (follows \(`[a-z_-]+`\)|depends on) call/,
            );
          }
          bad[j] = runOf(j) === undefined || failed(j);
        });
      }
      if (onFailure === 'stop') {
        // No call starts after the first failed answer (calls in flight finish).
        const answers = runs.filter((run) => failed(run.index)).map((run) => endedSeq[run.index]!);
        const first = Math.min(...answers);
        for (const run of runs)
          assert.ok(
            run.startSeq < first,
            `expected run.startSeq (${run.startSeq}) < first (${first})`,
          );
      }
      // Waves: the plan puts every call after each call it follows, and explains every edge.
      const start = events[0];
      if (start?.type === 'batch-start' && start.plan !== undefined) {
        const waveOf: number[] = [];
        start.plan.waves.forEach((wave, w) => {
          for (const call of wave.calls) waveOf[call] = w;
        });
        for (const [earlier, later] of pairs)
          assert.ok(
            waveOf[earlier]! < waveOf[later]!,
            `expected waveOf[earlier] (${waveOf[earlier]!}) < waveOf[later] (${waveOf[later]!})`,
          );
        for (const explanation of start.explanation) {
          const mine = pairs.filter(([, later]) => later === explanation.index);
          assert.deepEqual(
            explanation.edges ?? [],
            mine.map(([call, , source]) => ({ call, source })),
          );
          for (const [, , source] of mine) expect(explanation.reason).toContain(`\`${source}\``);
        }
      }
      // Rules 4 and 5 still hold beside the edges (sequential: every pair in order).
      for (let j = 0; j < ops.length; j++) {
        for (let i = 0; i < j; i++) {
          const [a, b] = [runOf(i), runOf(j)];
          if (a === undefined || b === undefined) continue;
          if (
            modeOf(entry) === 'sequential' ||
            (mustOrder(ops[i]!, ops[j]!) && modeOf(entry) === 'eager')
          ) {
            assert.ok(
              a.endSeq! < b.startSeq,
              `expected a.endSeq (${a.endSeq!}) < b.startSeq (${b.startSeq})`,
            );
          }
        }
      }
    }),
    { numRuns: 400 },
  );
}, 120_000);
