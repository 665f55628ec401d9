// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import {
  abortableDelay,
  type Instrumentation,
  ToolRegistry,
  type ToolResult,
} from '@toolwaves/core';
import fc from 'fast-check';
import { tap } from 'rxjs';
import { it, vi } from 'vitest';
import { type CallSkippedEvent, type DispatchEvent, Dispatcher } from '../src/index.js';
import { arrivingCalls } from './arriving-calls.js';
import { useFakeClock } from './fake-clock.js';
import {
  arrivalTimes,
  type GeneratedOp,
  generatedOpArb,
  mustOrder,
  opCalls,
  opTool,
} from './generated-ops.js';
import { record, starts } from './recording.js';

useFakeClock();

type Op = GeneratedOp;

const opArb = generatedOpArb(['ok', 'ok', 'ok', 'throw', 'report']);

type Shape = 'waves' | 'eager batch' | 'stream' | 'sequential batch' | 'sequential stream';

const scenarioArb = fc.record({
  ops: fc.array(opArb, { maxLength: 10 }),
  cap: fc.integer({ min: 1, max: 4 }),
  shape: fc.constantFrom<Shape>(
    'waves',
    'eager batch',
    'stream',
    'sequential batch',
    'sequential stream',
  ),
  priority: fc.constantFrom('model-order', 'longest-first') as fc.Arbitrary<
    'model-order' | 'longest-first'
  >,
});

/** Whether call `j` depends on call `i`, directly or through calls between them. */
function dependsOn(before: (a: number, b: number) => boolean, i: number, j: number): boolean {
  const reaches: boolean[] = [];
  reaches[i] = true;
  for (let k = i + 1; k <= j; k++) {
    for (let m = i; m < k; m++) if (reaches[m] === true && before(m, k)) reaches[k] = true;
  }
  return reaches[j] === true;
}

/** Each call's wave from the plan on `batch-start`; without waves, its model-order position. */
function waveIndex(events: readonly DispatchEvent[], count: number): number[] {
  const start = events[0];
  const plan = start?.type === 'batch-start' ? start.plan : undefined;
  const waves = Array.from({ length: count }, (_, i) => i);
  plan?.waves.forEach((wave, w) => {
    for (const call of wave.calls) waves[call] = w;
  });
  return waves;
}

interface ToolRun {
  readonly index: number;
  readonly startSeq: number;
  endSeq?: number;
}

async function runScenario(
  scenario: typeof scenarioArb extends fc.Arbitrary<infer S> ? S : never,
  onFailure: 'continue' | 'skip-dependents' | 'stop',
) {
  const { ops, cap, shape, priority } = scenario;
  let seq = 0;
  const toolRuns: ToolRun[] = [];
  const op = (input: unknown): Op => ops[(input as { i: number }).i]!;
  const registry = new ToolRegistry().add(
    opTool(ops, async (input) => {
      const run: ToolRun = { index: input.i, startSeq: seq++ };
      toolRuns.push(run);
      try {
        await abortableDelay(op(input).ms, new AbortController().signal);
      } finally {
        run.endSeq = seq++;
      }
      if (op(input).end === 'throw') throw new Error(`boom ${input.i}`);
      return { content: `r${input.i}`, isError: op(input).end === 'report' };
    }),
  );
  // Every call the instrumentation or a `call-start` says a call waited for must have ended
  // (answered or skipped) before that call started: the breaches found, and the first starts.
  const endedSeq: number[] = [];
  const waitBreaches: string[] = [];
  const firstStarts: number[] = [];
  const checkWaits = (index: number, waitedFor: readonly number[], where: string): void => {
    for (const i of waitedFor) {
      if (endedSeq[i] === undefined) waitBreaches.push(`${where}: c${index} waited for c${i}`);
    }
  };
  const instrumentation: Instrumentation = {
    startBatch: () => ({
      startAttempt: (info) => {
        if (info.attempt === 1) firstStarts.push(info.index);
        checkWaits(
          info.index,
          info.waitedFor.map((id) => Number(id.slice(1))),
          'startAttempt',
        );
        return { granted: () => {}, run: (fn) => fn(), end: () => {} };
      },
      end: () => {},
    }),
  };
  const sequential = shape.startsWith('sequential');
  const dispatcher = new Dispatcher({
    registry,
    mode: sequential ? 'sequential' : shape === 'waves' ? 'parallel' : 'eager',
    maxConcurrency: cap,
    priority,
    onFailure,
    instrumentation,
  });
  const calls = opCalls(ops);
  const streamed = shape.endsWith('stream');
  const arrivalMs = arrivalTimes(ops, streamed);
  // When each call was answered (its final `call-end`), on the same sequence as the tool runs.
  const answeredSeq: number[] = [];
  const run = record(
    (streamed ? dispatcher.runStream(arrivingCalls(calls, arrivalMs)) : dispatcher.run(calls)).pipe(
      tap((event) => {
        if (event.type === 'call-end' && event.result !== undefined)
          answeredSeq[event.index] = seq++;
        if (event.type === 'call-skipped' || (event.type === 'call-end' && event.result))
          endedSeq[event.index] = seq;
        if (event.type === 'call-start')
          checkWaits(event.index, event.waitedFor ?? [], 'call-start');
      }),
    ),
  );
  await vi.runAllTimersAsync();
  assert.equal(run.status, 'complete');
  const end = run.events.at(-1);
  if (end?.type !== 'batch-end') throw new Error('expected batch-end last');
  return {
    toolRuns,
    answeredSeq,
    events: run.events,
    results: end.results,
    calls,
    waitBreaches,
    firstStarts,
  };
}

const skippedEvents = (events: readonly DispatchEvent[]): CallSkippedEvent[] =>
  events.filter((event): event is CallSkippedEvent => event.type === 'call-skipped');

/** The fields of a result the properties check. */
const pick = ({ content, isError }: ToolResult): Pick<ToolResult, 'content' | 'isError'> => ({
  content,
  isError,
});

/** Every call a call waited for had ended before it started; each call a first attempt once. */
const checkWaitsKept = (
  ops: readonly Op[],
  { waitBreaches, firstStarts }: { waitBreaches: string[]; firstStarts: number[] },
) => {
  assert.deepEqual(waitBreaches, []);
  // Every call, run or skipped, was reported once as a first attempt.
  assert.deepEqual(
    [...firstStarts].sort((a, b) => a - b),
    ops.map((_, i) => i),
  );
};

/** The result a call that ran gives, from its generated ending. */
const ownAnswer = (op: Op, i: number): Pick<ToolResult, 'content' | 'isError'> => ({
  content: op.end === 'throw' ? `Tool \`op\` failed: boom ${i}` : `r${i}`,
  isError: op.end !== 'ok',
});

it("'skip-dependents': a call runs iff none of its (transitive) dependencies failed; the others run as usual", async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (scenario) => {
      const { ops } = scenario;
      const outcome = await runScenario(scenario, 'skip-dependents');
      const { toolRuns, events, results } = outcome;
      checkWaitsKept(ops, outcome);
      // Waves run in the plan's order, which need not keep rule 5 (greedy does not): there a
      // call depends on the earlier calls it must wait for that its plan runs before it.
      const waveOf = waveIndex(events, ops.length);
      const before = (i: number, j: number): boolean =>
        i < j && mustOrder(ops[i]!, ops[j]!) && waveOf[i]! < waveOf[j]!;
      // The reference, in model order: a call is skipped when an earlier call it must wait for
      // failed or was skipped.
      const skipped: boolean[] = [];
      const bad: boolean[] = [];
      ops.forEach((op, j) => {
        skipped[j] = ops.some((_, i) => bad[i] === true && before(i, j));
        bad[j] = skipped[j] || op.end !== 'ok';
      });
      const ran = ops.map((_, i) => toolRuns.filter((r) => r.index === i).length);
      assert.deepEqual(
        ran,
        skipped.map((s) => (s ? 0 : 1)),
      );
      const skips = skippedEvents(events);
      assert.deepEqual(
        skips.map((e) => e.index).sort((a, b) => a - b),
        ops.flatMap((_, i) => (skipped[i] ? [i] : [])),
      );
      for (const event of skips) {
        assert.equal(event.reason, 'dependency-failed');
        assert.equal(
          starts(events).some((s) => s.index === event.index),
          false,
        );
      }
      results.forEach((result, j) => {
        if (!skipped[j]) {
          assert.deepEqual(pick(result), ownAnswer(ops[j]!, j));
          return;
        }
        const named =
          /^Call `c(\d+)` \(`op`\) did not run: it depends on call `c(\d+)` \(`op`\)/.exec(
            result.content,
          );
        assert.equal(named?.[1], String(j));
        const failed = Number(named?.[2]);
        // The call named failed itself (it ran and answered a soft error) and j depends on it.
        assert.equal(skipped[failed], false);
        assert.notEqual(ops[failed]!.end, 'ok');
        assert.equal(dependsOn(before, failed, j), true);
        assert.equal(result.isError, true);
        assert.equal(skips.find((e) => e.index === j)?.failedCallId, `c${failed}`);
      });
    }),
    { numRuns: 800 },
  );
});

it("'stop': no call starts after the first failure's end; calls in flight finish; the rest say they did not run", async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (scenario) => {
      const { ops } = scenario;
      const outcome = await runScenario(scenario, 'stop');
      const { toolRuns, answeredSeq, events, results } = outcome;
      checkWaitsKept(ops, outcome);
      // The first failure: the call that ran and failed (by the generated scenario) whose
      // answer came first.
      const failedRuns = toolRuns.filter((r) => ops[r.index]!.end !== 'ok');
      const first = failedRuns.sort((a, b) => answeredSeq[a.index]! - answeredSeq[b.index]!)[0];
      for (const toolRun of toolRuns) {
        if (first !== undefined) {
          assert.ok(
            toolRun.startSeq < answeredSeq[first.index]!,
            `expected toolRun.startSeq (${toolRun.startSeq}) < answeredSeq[first.index] (${answeredSeq[first.index]!})`,
          );
        }
      }
      const ranSet = new Set(toolRuns.map((r) => r.index));
      if (first === undefined) assert.equal(ranSet.size, ops.length);
      results.forEach((result, i) => {
        if (ranSet.has(i)) {
          // Ran (maybe in flight when the first failure came): its own answer.
          assert.deepEqual(pick(result), ownAnswer(ops[i]!, i));
          return;
        }
        assert.deepEqual(pick(result), {
          content: `Call \`c${i}\` (\`op\`) did not run: call \`c${first!.index}\` (\`op\`) failed first, and the failure policy is 'stop'`,
          isError: true,
        });
      });
      const skips = skippedEvents(events).sort((a, b) => a.index - b.index);
      assert.deepEqual(
        skips.map((e) => [e.index, e.reason, e.failedCallId]),
        ops.flatMap((_, i) => (ranSet.has(i) ? [] : [[i, 'stopped', `c${first!.index}`]])),
      );
    }),
    { numRuns: 800 },
  );
});

// The two properties above check the waits under 'skip-dependents' and 'stop'; here the default.
it("every call a call waited for (instrumentation, call-start) had ended before it started, in every mode, under 'continue' (and above, the other policies)", async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (scenario) => {
      checkWaitsKept(scenario.ops, await runScenario(scenario, 'continue'));
    }),
    { numRuns: 200 },
  );
});
