// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { abortableDelay, fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { dependencies } from '@toolwaves/planner';
import fc from 'fast-check';
import { expect, it, vi } from 'vitest';
import { type DispatchEvent, Dispatcher } from '../src/index.js';
import { arrivingCalls } from './arriving-calls.js';
import { fakeNow, useFakeClock } from './fake-clock.js';

useFakeClock();

// Named limits in every mode, on the fake clock: a random set of limits with random capacities,
// calls with random weights in some of them, random keys and durations. What is checked is
// derived from the scenario and the events alone: the weights in use never pass a capacity, a
// call that could have started (a slot free, its own limits with room) never waits, and a call
// that waited while a slot was free says which of its own limits it waited for. In waves, the
// plan's explanation names every limit a call counts against, and every limit it waited for as
// one it may wait for (its wave needs more of it than the capacity).

const LIMITS = ['api', 'db', 'gpu'] as const;
type Mode = 'parallel' | 'sequential' | 'eager' | 'stream' | 'turn';

const opArb = fc.record({
  ms: fc.integer({ min: 1, max: 40 }),
  safe: fc.constantFrom(true, true, true, true, true, false),
  key: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }),
  write: fc.boolean(),
  /** A fraction of each limit's capacity (0: not counted against it). */
  shares: fc.tuple(...LIMITS.map(() => fc.constantFrom(0, 0, 0.25, 0.5, 1))),
  gap: fc.integer({ min: 0, max: 15 }),
});

const scenarioArb = fc.record({
  capacities: fc.tuple(...LIMITS.map(() => fc.integer({ min: 1, max: 4 }))),
  ops: fc.array(opArb, { minLength: 1, maxLength: 12 }),
  cap: fc.integer({ min: 1, max: 5 }),
  mode: fc.constantFrom<Mode>('parallel', 'sequential', 'eager', 'stream', 'turn'),
});

type Op = typeof opArb extends fc.Arbitrary<infer T> ? T : never;

/** A call's weights: a share of each capacity, rounded up to at least 1 (0 share: none). */
function weightsOf(op: Op, capacities: readonly number[]): Record<string, number> {
  const weights: Record<string, number> = {};
  LIMITS.forEach((name, l) => {
    const share = op.shares[l]!;
    if (share > 0) weights[name] = Math.max(1, Math.ceil(share * capacities[l]!));
  });
  return weights;
}

it('limits hold in every mode; no call waits for a limit it does not use; every limit wait is named, in events and the explanation', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async ({ capacities, ops, cap, mode }) => {
      let seq = 0;
      const t0 = fakeNow(); // the fake clock runs on from one generated scenario to the next
      const marks: { time: number; seq: number; call: number; kind: 'start' | 'end' }[] = [];
      const limits = Object.fromEntries(LIMITS.map((name, l) => [name, capacities[l]!]));
      const weights = ops.map((op) => weightsOf(op, capacities));
      const registry = new ToolRegistry().add(
        fnTool<{ i: number }>({
          name: 'op',
          description: 'a generated call',
          concurrencySafe: ({ i }) => ops[i]!.safe,
          access: ({ i }) => {
            const { key, write } = ops[i]!;
            return key === undefined ? [] : [{ key, mode: write ? 'write' : 'read' }];
          },
          limits: ({ i }) => weights[i]!,
          execute: async ({ i }, context) => {
            marks.push({ time: fakeNow(), seq: seq++, call: i, kind: 'start' });
            await abortableDelay(ops[i]!.ms, context.signal);
            marks.push({ time: fakeNow(), seq: seq++, call: i, kind: 'end' });
            return `r${i}`;
          },
        }),
      );
      const dispatcher = new Dispatcher({
        registry,
        mode: mode === 'stream' || mode === 'turn' ? 'eager' : mode,
        maxConcurrency: cap,
        limits,
        // Calls start as they arrive: holding writes until the message ends ('read-only') is a
        // rule of its own, with its own property (hold-side-effects-properties.test.ts); here a
        // call is ready on arrival, and the turn's runs are awaited before it closes.
        whileStreaming: 'all',
      });
      const calls: ToolCall[] = ops.map((_, i) => ({ id: `c${i}`, name: 'op', input: { i } }));
      const streamed = mode === 'stream' || mode === 'turn';
      const arrivals: number[] = [];
      let at = 0;
      for (const op of ops) {
        at += streamed ? op.gap : 0;
        arrivals.push(at);
      }
      const events: { event: DispatchEvent; time: number }[] = [];
      const onEvent = (event: DispatchEvent): void => {
        events.push({ event, time: fakeNow() });
      };
      let done: Promise<unknown>;
      if (mode === 'turn') {
        const turn = dispatcher.openTurn({ onEvent });
        const runs = calls.map(
          (call, k) =>
            new Promise((resolve) => setTimeout(() => resolve(turn.run(call)), arrivals[k])),
        );
        done = Promise.all(runs).then(() => turn.close());
      } else if (mode === 'stream') {
        done = dispatcher.dispatchStream(arrivingCalls(calls, arrivals), { onEvent });
      } else {
        done = dispatcher.dispatch(calls, { onEvent });
      }
      await vi.runAllTimersAsync();
      await done;

      const startOf = new Map<number, number>();
      for (const mark of marks) if (mark.kind === 'start') startOf.set(mark.call, mark.time);
      assert.equal(startOf.size, ops.length);

      // 1. The weights in use never pass a capacity (ends before starts at one time: seq order).
      const used = LIMITS.map(() => 0);
      for (const mark of [...marks].sort((a, b) => a.seq - b.seq)) {
        const sign = mark.kind === 'start' ? 1 : -1;
        LIMITS.forEach((name, l) => {
          used[l]! += sign * (weights[mark.call]![name] ?? 0);
          assert.ok(
            used[l]! <= capacities[l]!,
            `expected used[l] (${used[l]}) <= capacities[l] (${capacities[l]!})`,
          );
        });
      }

      // When each call was ready: its wave began (waves), or it had arrived and every call it
      // depends on by the rules had ended (eager, streams, turns).
      const ready: number[] = [];
      const endOf = new Map<number, number>();
      for (const mark of marks) if (mark.kind === 'end') endOf.set(mark.call, mark.time);
      const batchCap =
        mode === 'sequential' ? 1 : streamed ? cap : Math.max(1, Math.min(cap, ops.length));
      if (mode === 'parallel' || mode === 'sequential') {
        for (const { event, time } of events) {
          if (event.type === 'wave-start') for (const call of event.calls) ready[call] = time;
        }
        if (ops.length === 1) ready[0] = t0;
      } else {
        const nodes = registry.toPlanNodes(calls);
        dependencies(nodes).forEach((deps, call) => {
          ready[call] = Math.max(t0 + arrivals[call]!, ...deps.map((d) => endOf.get(d)!));
        });
      }
      const waitedFor = new Map<number, readonly string[]>();
      for (const { event } of events) {
        if (event.type === 'call-start' && event.waitedForLimits !== undefined) {
          waitedFor.set(event.index, event.waitedForLimits);
        }
      }

      // 2 and 3, at every moment something changed (the state once all its changes are made).
      const times = [...new Set([...marks.map((m) => m.time), ...ready])].sort((a, b) => a - b);
      const freeSlotWhileWaiting = ops.map(() => false);
      for (const t of times) {
        const running = new Set<number>();
        const inUse = new Map<string, number>();
        for (const mark of [...marks].sort((a, b) => a.seq - b.seq)) {
          if (mark.time > t) break;
          const sign = mark.kind === 'start' ? 1 : -1;
          if (sign > 0) running.add(mark.call);
          else running.delete(mark.call);
          for (const [name, w] of Object.entries(weights[mark.call]!)) {
            inUse.set(name, (inUse.get(name) ?? 0) + sign * w);
          }
        }
        for (let c = 0; c < ops.length; c++) {
          if (!(ready[c]! <= t && t < startOf.get(c)!)) continue;
          const own = Object.entries(weights[c]!).filter(
            ([name, w]) => (inUse.get(name) ?? 0) + w > limits[name]!,
          );
          const free = running.size < batchCap;
          // No head-of-line blocking: a free slot and room in its own limits, yet waiting: wrong.
          assert.equal(free && own.length === 0, false);
          if (free) freeSlotWhileWaiting[c] = true;
        }
      }
      // The limits full for a call at any point while it waited, instants included (a call may
      // wait for a limit for no time at all: given back at the moment it became ready).
      const ordered = [...marks].sort((a, b) => a.seq - b.seq);
      const fullFor = ops.map(() => new Set<string>());
      const state = new Map<string, number>();
      for (let k = 0; k <= ordered.length; k++) {
        const from = k === 0 ? Number.NEGATIVE_INFINITY : ordered[k - 1]!.time;
        const to = k === ordered.length ? Number.POSITIVE_INFINITY : ordered[k]!.time;
        for (let c = 0; c < ops.length; c++) {
          if (to < ready[c]! || from > startOf.get(c)!) continue;
          for (const [name, w] of Object.entries(weights[c]!)) {
            if ((state.get(name) ?? 0) + w > limits[name]!) fullFor[c]!.add(name);
          }
        }
        const mark = ordered[k];
        if (mark === undefined) break;
        for (const [name, w] of Object.entries(weights[mark.call]!)) {
          state.set(name, (state.get(name) ?? 0) + (mark.kind === 'start' ? w : -w));
        }
      }
      for (let c = 0; c < ops.length; c++) {
        const named = waitedFor.get(c) ?? [];
        // Every limit named is one of its own, and one that was full for it while it waited.
        for (const name of named) {
          assert.equal(Object.hasOwn(weights[c]!, name), true);
          assert.equal(fullFor[c]!.has(name), true);
        }
        // A call that waited while a slot was free names what it waited for.
        if (freeSlotWhileWaiting[c])
          assert.ok(named.length > 0, `expected named.length (${named.length}) > 0`);
      }

      // 4. Waves: the explanation names each call's own limits with their weights and, for every
      // limit a call waited for, says it may wait for it, because its wave needs more than fits.
      if (mode === 'parallel' || mode === 'sequential') {
        const start = events.find(({ event }) => event.type === 'batch-start')?.event;
        if (start?.type !== 'batch-start') throw new Error('expected a batch-start event');
        const waveOf = new Map<number, number>();
        for (const { event } of events)
          if (event.type === 'call-start') waveOf.set(event.index, event.wave!);
        for (let c = 0; c < ops.length; c++) {
          const explained = start.explanation[c]!;
          const own = Object.entries(weights[c]!).map(([name, weight]) => ({
            name,
            weight,
            capacity: limits[name]!,
          }));
          expect(explained.limits ?? []).toEqual(own);
          for (const name of waitedFor.get(c) ?? []) {
            const needed = ops.reduce(
              (sum, _, d) => sum + (waveOf.get(d) === waveOf.get(c) ? (weights[d]![name] ?? 0) : 0),
              0,
            );
            assert.ok(
              needed > limits[name]!,
              `expected needed (${needed}) > limits[name] (${limits[name]!})`,
            );
            expect(explained.limitWaits).toContainEqual({ name, needed, capacity: limits[name]! });
            expect(explained.reason).toContain(
              `may wait for limit \`${name}\`: its wave needs ${needed} of ${limits[name]!}`,
            );
          }
        }
      }
    }),
    { numRuns: 300 },
  );
});
