import { abortableDelay, fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import fc from 'fast-check';
import { tap } from 'rxjs';
import { expect, it, vi } from 'vitest';
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
      expect(run.status).not.toBe('running');
      const events: DispatchEvent[] = run.events;

      // Events: no waves; call-start and call-end paired per attempt.
      expect(events.some((e) => e.type === 'wave-start' || e.type === 'wave-end')).toBe(false);
      const open = new Set<string>();
      for (const event of events) {
        if (event.type === 'call-start') {
          expect(event.wave).toBeUndefined();
          expect(event.waitedMs).toBeGreaterThanOrEqual(0);
          open.add(`${event.toolCallId}#${event.attempt}`);
        } else if (event.type === 'call-end') {
          expect(open.delete(`${event.toolCallId}#${event.attempt}`)).toBe(true);
        }
      }
      expect([...open]).toEqual([]);
      expect(ends(events)).toHaveLength(starts(events).length);

      // Every tool run ended; none started before its call arrived or after a cancel.
      for (const toolRun of toolRuns) {
        expect(toolRun.endSeq).toBeDefined();
        expect(toolRun.start).toBeGreaterThanOrEqual(arrivalMs[toolRun.index]!);
        if (cancelSeq !== undefined) expect(toolRun.startSeq).toBeLessThan(cancelSeq);
      }
      // Each call ran once, or twice when it threw and recovery retried it.
      const attemptsOf = (i: number): number =>
        retryDelay !== undefined && ops[i]!.end === 'throw' ? 2 : 1;
      const runsOf = (i: number): ToolRun[] => toolRuns.filter((r) => r.index === i);
      for (let i = 0; i < ops.length; i++) {
        expect(runsOf(i).length).toBeLessThanOrEqual(attemptsOf(i));
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
          if (earlier !== undefined) expect(earlier.endSeq).toBeLessThan(later.startSeq);
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
        expect(live).toBeLessThanOrEqual(limit);
      }

      if (run.status === 'error') {
        const code = (run.error as DispatchError).code;
        const aborted = ops.some((o, i) => o.end === 'abort' && runOfHook(events, i));
        expect(code === 'cancelled' ? cancelledAt !== undefined : code === 'aborted').toBe(true);
        if (code === 'aborted') expect(aborted).toBe(true);
        expect(events.some((e) => e.type === 'batch-end')).toBe(false);
        // Nothing starts after the hard error, and the source is no longer read.
        const ranBefore = toolRuns.length;
        const deliveredBefore = delivered.length;
        await vi.advanceTimersByTimeAsync(1_000);
        expect(toolRuns).toHaveLength(ranBefore);
        expect(delivered).toHaveLength(deliveredBefore);
        return;
      }

      // Complete: no call asked to abort, each answered once in its slot with its own answer.
      expect(ops.some((o) => o.end === 'abort')).toBe(false);
      const end = events.at(-1);
      if (end?.type !== 'batch-end') throw new Error('expected batch-end last');
      expect(end.results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
      end.results.forEach((result, i) => {
        const { end: how } = ops[i]!;
        const threw = `Tool \`op\` failed: boom ${i}`;
        const expected =
          how !== 'throw'
            ? `r${i}`
            : retryDelay === undefined
              ? threw
              : `Recovery gave up on \`op\` after 2 attempts: ${threw}`;
        expect(result.content).toBe(expected);
        expect(result.isError).toBe(how !== 'ok');
        expect(runsOf(i)).toHaveLength(attemptsOf(i));
      });
    }),
    { numRuns: 1500 },
  );
});

/** Whether call `i` got as far as its pre hooks (a `call-start` was emitted for it). */
function runOfHook(events: readonly DispatchEvent[], i: number): boolean {
  return starts(events).some((e) => e.toolCallId === `c${i}`);
}
