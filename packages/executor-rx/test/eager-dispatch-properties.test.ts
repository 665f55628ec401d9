// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { abortableDelay, fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import fc from 'fast-check';
import { tap } from 'rxjs';
import { it, vi } from 'vitest';
import { type DispatchError, type DispatchEvent, Dispatcher } from '../src/index.js';
import { arrivingCalls } from './arriving-calls.js';
import { fakeNow, useFakeClock } from './fake-clock.js';
import { type GeneratedOp, generatedOpArb, mustOrder } from './generated-ops.js';
import { ends, record, starts } from './recording.js';
import { retryOnce } from './recovery-strategies.js';

useFakeClock();

type Op = GeneratedOp;

const opArb = generatedOpArb(['ok', 'ok', 'ok', 'ok', 'throw', 'report', 'abort']);

type Shape = 'eager batch' | 'stream' | 'sequential stream';

const scenarioArb = fc.record({
  ops: fc.array(opArb, { maxLength: 10 }),
  cap: fc.integer({ min: 1, max: 4 }),
  shape: fc.constantFrom<Shape>('eager batch', 'stream', 'stream', 'sequential stream'),
  priority: fc.constantFrom('model-order', 'longest-first') as fc.Arbitrary<
    'model-order' | 'longest-first'
  >,
  cancelAt: fc.option(fc.integer({ min: 0, max: 100 }), { freq: 3, nil: undefined }),
  retryDelay: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
});

/** A tool run on the fake clock, with a sequence number for the order of things at one time. */
interface ToolRun {
  readonly index: number;
  readonly start: number;
  readonly startSeq: number;
  end?: number;
  endSeq?: number;
}

it('eager batches and streams keep the rules, the cap and arrivals; every call answered once in its slot', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async ({ ops, cap, shape, priority, cancelAt, retryDelay }) => {
      let seq = 0;
      const toolRuns: ToolRun[] = [];
      const op = (input: unknown): Op => ops[(input as { i: number }).i]!;
      const registry = new ToolRegistry().add(
        fnTool<{ i: number }>({
          name: 'op',
          description: 'a generated call',
          concurrencySafe: (input) => op(input).safe,
          access: (input) =>
            op(input).accesses.map(({ key, write }) => ({ key, mode: write ? 'write' : 'read' })),
          execute: async (input, context) => {
            const run: ToolRun = { index: input.i, start: fakeNow(), startSeq: seq++ };
            toolRuns.push(run);
            try {
              await abortableDelay(op(input).ms, context.signal);
            } finally {
              run.end = fakeNow();
              run.endSeq = seq++;
            }
            const { end } = op(input);
            if (end === 'throw') throw new Error(`boom ${input.i}`);
            return { content: `r${input.i}`, isError: end === 'report' };
          },
        }),
      );
      const dispatcher = new Dispatcher({
        registry,
        mode: shape === 'sequential stream' ? 'sequential' : 'eager',
        maxConcurrency: cap,
        priority,
        ...(retryDelay === undefined ? {} : { recovery: { strategy: retryOnce(retryDelay) } }),
        hooks: {
          pre: [
            ({ input }) =>
              op(input).end === 'abort' ? { action: 'abort', reason: 'stop here' } : undefined,
          ],
        },
      });
      const calls: ToolCall[] = ops.map((_, i) => ({ id: `c${i}`, name: 'op', input: { i } }));
      const arrivalMs: number[] = [];
      let at = 0;
      for (const generated of ops) {
        at += shape === 'eager batch' ? 0 : generated.arrivalGap;
        arrivalMs.push(at);
      }
      const delivered: number[] = [];
      const source = arrivingCalls(calls, arrivalMs).pipe(tap(() => delivered.push(fakeNow())));
      const controller = new AbortController();
      let cancelledAt: number | undefined;
      let cancelSeq: number | undefined;
      if (cancelAt !== undefined) {
        setTimeout(() => {
          cancelledAt = fakeNow();
          cancelSeq = seq++;
          controller.abort();
        }, cancelAt);
      }
      const run = record(
        shape === 'eager batch'
          ? dispatcher.run(calls, { signal: controller.signal })
          : dispatcher.runStream(source, { signal: controller.signal }),
      );
      await vi.runAllTimersAsync();
      assert.notEqual(run.status, 'running');
      const events: DispatchEvent[] = run.events;

      // Events: no waves; call-start and call-end paired per attempt.
      assert.equal(
        events.some((e) => e.type === 'wave-start' || e.type === 'wave-end'),
        false,
      );
      const open = new Set<string>();
      for (const event of events) {
        if (event.type === 'call-start') {
          assert.equal(event.wave, undefined);
          assert.ok(event.waitedMs! >= 0, `expected event.waitedMs (${event.waitedMs}) >= 0`);
          open.add(`${event.toolCallId}#${event.attempt}`);
        } else if (event.type === 'call-end') {
          assert.equal(open.delete(`${event.toolCallId}#${event.attempt}`), true);
        }
      }
      assert.deepEqual([...open], []);
      assert.equal(ends(events).length, starts(events).length);

      // Every tool run ended; none started before its call arrived or after a cancel.
      for (const toolRun of toolRuns) {
        assert.notEqual(toolRun.endSeq, undefined);
        assert.ok(
          toolRun.start >= arrivalMs[toolRun.index]!,
          `expected toolRun.start (${toolRun.start}) >= arrivalMs[toolRun.index] (${arrivalMs[toolRun.index]!})`,
        );
        if (cancelSeq !== undefined)
          assert.ok(
            toolRun.startSeq < cancelSeq,
            `expected toolRun.startSeq (${toolRun.startSeq}) < cancelSeq (${cancelSeq})`,
          );
      }
      // Each call ran once, or twice when it threw and recovery retried it.
      const attemptsOf = (i: number): number =>
        retryDelay !== undefined && ops[i]!.end === 'throw' ? 2 : 1;
      const runsOf = (i: number): ToolRun[] => toolRuns.filter((r) => r.index === i);
      for (let i = 0; i < ops.length; i++) {
        assert.ok(runsOf(i).length <= attemptsOf(i));
      }
      /** From the first attempt's start to the last attempt's end. */
      const runOf = (i: number): { startSeq: number; endSeq: number } | undefined => {
        const runs = runsOf(i);
        if (runs.length === 0) return undefined;
        return {
          startSeq: Math.min(...runs.map((r) => r.startSeq)),
          endSeq: Math.max(...runs.map((r) => r.endSeq!)),
        };
      };

      // Rules 4 and 5: of two calls that must keep their order, the later one starts after the
      // earlier one ended (so they never overlap, and an unsafe call runs alone). A sequential
      // stream keeps every pair in order.
      for (let j = 0; j < ops.length; j++) {
        const later = runOf(j);
        if (later === undefined) continue;
        for (let i = 0; i < j; i++) {
          if (shape !== 'sequential stream' && !mustOrder(ops[i]!, ops[j]!)) continue;
          const earlier = runOf(i);
          // The earlier call may have ended without running its tool (aborted by a hook).
          if (earlier !== undefined)
            assert.ok(
              earlier.endSeq < later.startSeq,
              `expected earlier.endSeq (${earlier.endSeq}) < later.startSeq (${later.startSeq})`,
            );
        }
      }

      // The cap holds (sequential streams: one at a time).
      const limit = shape === 'sequential stream' ? 1 : cap;
      const points = toolRuns.flatMap((r) => [
        { seq: r.startSeq, delta: 1 },
        { seq: r.endSeq!, delta: -1 },
      ]);
      points.sort((a, b) => a.seq - b.seq);
      let live = 0;
      for (const point of points) {
        live += point.delta;
        assert.ok(live <= limit, `expected live (${live}) <= limit (${limit})`);
      }

      if (run.status === 'error') {
        const code = (run.error as DispatchError).code;
        const aborted = ops.some((o, i) => o.end === 'abort' && runOfHook(events, i));
        assert.equal(code === 'cancelled' ? cancelledAt !== undefined : code === 'aborted', true);
        if (code === 'aborted') assert.equal(aborted, true);
        assert.equal(
          events.some((e) => e.type === 'batch-end'),
          false,
        );
        // Nothing starts after the hard error, and the source is no longer read.
        const ranBefore = toolRuns.length;
        const deliveredBefore = delivered.length;
        await vi.advanceTimersByTimeAsync(1_000);
        assert.equal(toolRuns.length, ranBefore);
        assert.equal(delivered.length, deliveredBefore);
        return;
      }

      // Complete: no call asked to abort, each answered once in its slot with its own answer.
      assert.equal(
        ops.some((o) => o.end === 'abort'),
        false,
      );
      const end = events.at(-1);
      if (end?.type !== 'batch-end') throw new Error('expected batch-end last');
      assert.deepEqual(
        end.results.map((r) => r.toolCallId),
        calls.map((c) => c.id),
      );
      end.results.forEach((result, i) => {
        const { end: how } = ops[i]!;
        const threw = `Tool \`op\` failed: boom ${i}`;
        const expected =
          how !== 'throw'
            ? `r${i}`
            : retryDelay === undefined
              ? threw
              : `Recovery gave up on \`op\` after 2 attempts: ${threw}`;
        assert.equal(result.content, expected);
        assert.equal(result.isError, how !== 'ok');
        assert.equal(runsOf(i).length, attemptsOf(i));
      });
    }),
    { numRuns: 1500 },
  );
});

/** Whether call `i` got as far as its pre hooks (a `call-start` was emitted for it). */
function runOfHook(events: readonly DispatchEvent[], i: number): boolean {
  return starts(events).some((e) => e.toolCallId === `c${i}`);
}
