// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import type { EagerPriority } from '@toolwaves/planner';
import fc from 'fast-check';
import {
  concat,
  ignoreElements,
  map,
  merge,
  mergeMap,
  type Observable,
  tap,
  throwError,
  timer,
} from 'rxjs';
import { it } from 'vitest';
import { type EagerCall, scheduleEager } from '../src/schedule-eager.js';
import { marbleScheduler } from './marble-scheduler.js';
import { referenceKeysOverlap } from './reference-keys-overlap.js';

/** One generated call: when it arrives, how long it runs, what it declares, whether it fails. */
interface GeneratedCall {
  readonly arrivalGap: number;
  readonly durationMs: number;
  readonly estimateMs: number;
  readonly safe: boolean;
  readonly accesses: readonly { readonly key: string; readonly write: boolean }[];
  readonly fails: boolean;
}

interface Scenario {
  readonly calls: readonly GeneratedCall[];
  readonly cap: number;
  readonly priority: EagerPriority;
  readonly cancelAt: number | undefined;
}

const callArb: fc.Arbitrary<GeneratedCall> = fc.record({
  arrivalGap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 12 })),
  durationMs: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.constant(0)),
  estimateMs: fc.integer({ min: 0, max: 30 }),
  safe: fc.integer({ min: 0, max: 5 }).map((n) => n > 0),
  accesses: fc.array(
    fc.record({ key: fc.constantFrom('a', 'a/b', 'a/c', 'b'), write: fc.boolean() }),
    { maxLength: 2 },
  ),
  fails: fc.integer({ min: 0, max: 24 }).map((n) => n === 0),
});

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  calls: fc.array(callArb, { maxLength: 12 }),
  cap: fc.integer({ min: 1, max: 4 }),
  priority: fc.constantFrom<EagerPriority>('model-order', 'longest-first'),
  cancelAt: fc.option(fc.integer({ min: 0, max: 120 }), { freq: 3, nil: undefined }),
});

// The reference: the rules written out plainly from the generated declarations.

/** `a` is `b`, an ancestor or a descendant of it (`/`-separated paths). */
const conflictRef = (a: GeneratedCall, b: GeneratedCall): boolean =>
  a.accesses.some((x) =>
    b.accesses.some((y) => (x.write || y.write) && referenceKeysOverlap(x.key, y.key)),
  );

/** Every earlier call `j` must wait for: a conflict (rule 4), or either side unsafe (rule 5). */
const mustWaitFor = (calls: readonly GeneratedCall[], j: number): number[] => {
  const waits: number[] = [];
  for (let i = 0; i < j; i++) {
    const a = calls[i]!;
    const b = calls[j]!;
    if (!a.safe || !b.safe || conflictRef(a, b)) waits.push(i);
  }
  return waits;
};

/** What happened to one call, on the virtual clock and in the order things happened. */
interface Trace {
  arrivedAt: number;
  startedAt?: number;
  startSeq?: number;
  endedAt?: number;
  endSeq?: number;
  /** Unsubscribed from before it ended (error elsewhere or cancellation). */
  stoppedAt?: number;
}

interface Outcome {
  readonly traces: Trace[];
  readonly emitted: number[];
  readonly status: 'complete' | 'error' | 'cancelled' | 'running';
  readonly error: unknown;
  readonly stopAt: number | undefined;
  readonly stopSeq: number | undefined;
}

function runScenario(scenario: Scenario): Outcome {
  const { calls, cap, priority, cancelAt } = scenario;
  const traces: Trace[] = [];
  const emitted: number[] = [];
  let seq = 0;
  let status: Outcome['status'] = 'running';
  let error: unknown;
  let stopAt: number | undefined;
  let stopSeq: number | undefined;
  const testScheduler = marbleScheduler();
  testScheduler.run(() => {
    const now = (): number => testScheduler.now();
    let arrival = 0;
    const items: Observable<EagerCall<number>>[] = calls.map((generated, index) => {
      arrival += generated.arrivalGap;
      const trace: Trace = { arrivedAt: arrival };
      traces.push(trace);
      const item: EagerCall<number> = {
        index,
        dependencies: mustWaitFor(calls, index),
        estimateMs: generated.estimateMs,
        run: () => {
          trace.startedAt = now();
          trace.startSeq = seq++;
          const done = timer(generated.durationMs).pipe(
            mergeMap(() =>
              generated.fails ? throwError(() => new Error(`call ${index} failed`)) : [index],
            ),
          );
          return done.pipe(
            tap({
              complete: () => {
                trace.endedAt = now();
                trace.endSeq = seq++;
              },
              unsubscribe: () => {
                trace.stoppedAt = now();
              },
              error: () => {
                trace.endedAt = now();
                trace.endSeq = seq++;
              },
            }),
          );
        },
      };
      return timer(trace.arrivedAt).pipe(map(() => item));
    });
    // The source stays open a little after the last arrival.
    const source = concat(merge(...items), timer(5).pipe(ignoreElements()));
    const subscription = source
      .pipe(scheduleEager<number>({ maxConcurrency: cap, priority }))
      .subscribe({
        next: (index) => emitted.push(index),
        error: (failure: unknown) => {
          status = 'error';
          error = failure;
          stopAt = now();
          stopSeq = seq++;
        },
        complete: () => {
          status = 'complete';
        },
      });
    if (cancelAt !== undefined) {
      timer(cancelAt).subscribe(() => {
        if (subscription.closed) return;
        status = 'cancelled';
        stopAt = now();
        stopSeq = seq++;
        subscription.unsubscribe();
      });
    }
  });
  return { traces, emitted, status, error, stopAt, stopSeq };
}

const betterThan = (scenario: Scenario, j: number, k: number): boolean => {
  if (scenario.priority === 'longest-first') {
    const a = scenario.calls[j]!.estimateMs;
    const b = scenario.calls[k]!.estimateMs;
    if (a !== b) return a > b;
  }
  return j < k;
};

it('eager schedules keep every rule, the cap, arrivals, priority and are work-conserving', () => {
  fc.assert(
    fc.property(scenarioArb, (scenario) => {
      const { calls, cap } = scenario;
      const outcome = runScenario(scenario);
      const { traces, stopAt, stopSeq } = outcome;
      const n = calls.length;
      const started = (i: number): boolean => traces[i]!.startSeq !== undefined;
      const ended = (i: number): boolean => traces[i]!.endSeq !== undefined;

      for (let j = 0; j < n; j++) {
        const t = traces[j]!;
        // No start before arrival, none after the batch stopped.
        if (started(j)) {
          assert.ok(
            t.startedAt! >= t.arrivedAt,
            `expected t.startedAt (${t.startedAt!}) >= t.arrivedAt (${t.arrivedAt})`,
          );
          if (stopSeq !== undefined)
            assert.ok(
              t.startSeq! < stopSeq,
              `expected t.startSeq (${t.startSeq!}) < stopSeq (${stopSeq})`,
            );
        }
        // Rules 4 and 5: a call starts only after every call it must wait for has ended.
        if (started(j)) {
          for (const i of mustWaitFor(calls, j)) {
            assert.equal(ended(i), true, `call ${j} started before call ${i} ended`);
            assert.ok(
              traces[i]!.endSeq! < t.startSeq!,
              `expected traces[i].endSeq (${traces[i]!.endSeq!}) < t.startSeq (${t.startSeq!})`,
            );
          }
        }
        // A call that is not concurrency-safe runs alone: nothing starts or ends while it runs.
        if (!calls[j]!.safe && started(j)) {
          const from = t.startSeq!;
          const to = t.endSeq ?? stopSeq ?? Number.POSITIVE_INFINITY;
          for (let k = 0; k < n; k++) {
            if (k === j) continue;
            const other = traces[k]!;
            if (other.startSeq !== undefined) {
              assert.equal(other.startSeq > from && other.startSeq < to, false);
            }
            if (other.endSeq !== undefined) {
              assert.equal(other.endSeq > from && other.endSeq < to, false);
            }
            if (k < j)
              assert.ok(
                (other.endSeq ?? Number.POSITIVE_INFINITY) < from,
                `expected other.endSeq ?? Number.POSITIVE_INFINITY < from (${from})`,
              );
          }
        }
      }

      // The cap holds at every moment.
      const changes: { seq: number; delta: number }[] = [];
      for (const t of traces) {
        if (t.startSeq === undefined) continue;
        changes.push({ seq: t.startSeq, delta: 1 });
        changes.push({ seq: t.endSeq ?? stopSeq ?? Number.POSITIVE_INFINITY, delta: -1 });
      }
      changes.sort((a, b) => a.seq - b.seq);
      let runningNow = 0;
      for (const change of changes) {
        runningNow += change.delta;
        assert.ok(runningNow <= cap, `expected runningNow (${runningNow}) <= cap (${cap})`);
      }

      // How it ended, from the scenario.
      const failing = traces
        .map((t, i) => ({ t, i }))
        .filter(({ t, i }) => calls[i]!.fails && t.endSeq !== undefined)
        .sort((a, b) => a.t.endSeq! - b.t.endSeq!);
      if (outcome.status === 'complete') {
        assert.deepEqual(failing, []);
        for (let i = 0; i < n; i++) assert.equal(ended(i), true);
        assert.deepEqual(
          [...outcome.emitted].sort((a, b) => a - b),
          calls.map((_, i) => i),
        );
      } else if (outcome.status === 'error') {
        const first = failing[0]!;
        assert.equal((outcome.error as Error).message, `call ${first.i} failed`);
        assert.equal(stopAt, first.t.endedAt);
      } else {
        assert.equal(outcome.status, 'cancelled');
        assert.equal(stopAt, scenario.cancelAt);
        assert.deepEqual(failing, []);
      }
      // Each call answered at most once, when it ended normally; calls running at the stop
      // were unsubscribed from then.
      const answered = calls.flatMap((generated, i) => (ended(i) && !generated.fails ? [i] : []));
      assert.deepEqual(
        [...outcome.emitted].sort((a, b) => a - b),
        answered,
      );
      for (const t of traces) {
        if (t.startSeq !== undefined && t.endSeq === undefined) assert.equal(t.stoppedAt, stopAt);
      }

      // Work-conserving, and the ready call with the best priority takes a free slot. A call
      // is ready from its arrival or its last dependency's end, whichever is later.
      const readyAt = (j: number): number | undefined => {
        let at = traces[j]!.arrivedAt;
        for (const i of mustWaitFor(calls, j)) {
          if (!ended(i)) return undefined;
          at = Math.max(at, traces[i]!.endedAt!);
        }
        return at;
      };
      const endOf = (t: Trace): number => t.endedAt ?? stopAt ?? Number.POSITIVE_INFINITY;
      const runningAt = (time: number): number =>
        traces.filter((t) => t.startedAt !== undefined && t.startedAt <= time && time < endOf(t))
          .length;
      const moments = [
        ...new Set(traces.flatMap((t) => [t.arrivedAt, t.startedAt ?? -1, t.endedAt ?? -1])),
      ];
      for (let j = 0; j < n; j++) {
        const ready = readyAt(j);
        if (ready === undefined) continue;
        const until = traces[j]!.startedAt ?? stopAt ?? Number.POSITIVE_INFINITY;
        for (const moment of moments) {
          if (moment >= ready && moment < until) {
            assert.equal(runningAt(moment), cap, `call ${j} waited at ${moment} with a slot free`);
          }
        }
        // Nothing that was ready before j started, and starts later, goes before j.
        if (!started(j)) continue;
        for (let k = 0; k < n; k++) {
          const readyK = readyAt(k);
          if (k === j || readyK === undefined || readyK >= traces[j]!.startedAt!) continue;
          const startK = traces[k]!.startedAt;
          if (startK === undefined || startK > traces[j]!.startedAt!) {
            assert.equal(betterThan(scenario, j, k), true, `call ${k} was passed over by ${j}`);
          }
        }
      }
    }),
    { numRuns: 3000 },
  );
});
