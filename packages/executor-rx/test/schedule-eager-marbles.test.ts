import type { EagerPriority } from '@toolwaves/planner';
import { from, map, type Observable, of, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { type EagerCall, scheduleEager } from '../src/schedule-eager.js';
import { marbleScheduler } from './marble-scheduler.js';

/** A call that takes `ms` of virtual time and then answers its letter. */
const job = (
  index: number,
  ms: number,
  dependencies: readonly number[] = [],
  estimateMs?: number,
): EagerCall<string> => ({
  index,
  dependencies,
  estimateMs,
  run: () => timer(ms).pipe(map(() => 'abcdefghij'[index] ?? '?')),
});

const schedule = (
  calls: Observable<EagerCall<string>>,
  maxConcurrency: number,
  priority?: EagerPriority,
) => calls.pipe(scheduleEager<string>({ maxConcurrency, priority }));

describe('scheduleEager on the marble timeline', () => {
  it('starts a call when its dependency ends, others beside it', () => {
    marbleScheduler().run(({ cold, expectObservable }) => {
      // a (30 ms) and c (10 ms) start at 0; b waits for a, then takes 10 ms.
      const calls = cold('(abc|)', { a: job(0, 30), b: job(1, 10, [0]), c: job(2, 10) });
      expectObservable(schedule(calls, 2)).toBe('10ms c 19ms a 9ms (b|)');
    });
  });

  it('keeps a free slot for nothing: the cap admits the next ready call at once', () => {
    marbleScheduler().run(({ cold, expectObservable }) => {
      // cap 2: a and b start at 0, c takes a's slot at 10, d takes a slot at 20 (the group "(bc)" spans 4 frames).
      const calls = cold('(abcd|)', { a: job(0, 10), b: job(1, 20), c: job(2, 10), d: job(3, 5) });
      expectObservable(schedule(calls, 2)).toBe('10ms a 9ms (bc) 1ms (d|)');
    });
  });

  it('gives a freed slot to the earliest ready call, not the first that became ready', () => {
    marbleScheduler().run(({ cold, expectObservable }) => {
      // cap 2. a (0–50) and b (0–10) run; d is ready at 0 but waits; c waits for b and is
      // ready at 10, when b's slot frees: c (earlier in model order) gets it, d waits for c.
      const calls = cold('(abcd|)', {
        a: job(0, 50),
        b: job(1, 10),
        c: job(2, 10, [1]),
        d: job(3, 10),
      });
      expectObservable(schedule(calls, 2)).toBe('10ms b 9ms c 9ms d 19ms (a|)');
    });
  });

  it('longest-first: the ready call with the largest estimate takes the slot', () => {
    marbleScheduler().run(({ cold, expectObservable }) => {
      // cap 1: a runs first (alone when it arrives); then c (estimate 30), d (20), b (10).
      const calls = cold('(abcd|)', {
        a: job(0, 5, [], 1),
        b: job(1, 10, [], 10),
        c: job(2, 30, [], 30),
        d: job(3, 20, [], 20),
      });
      expectObservable(schedule(calls, 1, 'longest-first')).toBe('5ms a 29ms c 19ms d 9ms (b|)');
    });
  });

  it('longest-first: calls an end makes ready compete for every slot free at that moment', () => {
    marbleScheduler().run(({ cold, expectObservable }) => {
      // cap 3: x (0–50) and d (0–10) run, one slot stays free (a, b, c wait for d). At 10 two
      // slots are free: b (estimate 100) and c (50) take them, a (10) waits for b (10–30).
      const calls = cold('(xdabc|)', {
        x: job(0, 50),
        d: job(1, 10),
        a: job(2, 5, [1], 10),
        b: job(3, 20, [1], 100),
        c: job(4, 40, [1], 50),
      });
      // Letters are call indices: d is 'b' (ends at 10), b is 'd', c is 'e', a is 'c'.
      expectObservable(schedule(calls, 3, 'longest-first')).toBe('10ms b 19ms d 4ms c 14ms (ae|)');
    });
  });

  it('a whole batch emitted at once competes by priority from the first slot on', () => {
    marbleScheduler().run(({ expectObservable }) => {
      // Synchronous source, cap 1: b (estimate 30) first, then c (20), then a (10).
      const calls = from([job(0, 5, [], 10), job(1, 5, [], 30), job(2, 5, [], 20)]);
      expectObservable(schedule(calls, 1, 'longest-first')).toBe('5ms b 4ms c 4ms (a|)');
    });
  });

  it('starts nothing before it arrives, and completes when the source has and all ended', () => {
    marbleScheduler().run(({ cold, expectObservable }) => {
      const calls = cold('a 9ms b 19ms |', { a: job(0, 15), b: job(1, 10, [0]) });
      // b arrives at 10 and waits for a (ends at 15); the source completes at 30.
      expectObservable(schedule(calls, 4)).toBe('15ms a 9ms b 4ms |');
    });
  });

  it('an error from a call stops everything: nothing starts, running calls are unsubscribed', () => {
    marbleScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const running = cold('20ms r|');
      const later = cold('5ms l|');
      const calls = cold('(abc|)', {
        a: { index: 0, dependencies: [], run: () => running },
        b: { index: 1, dependencies: [], run: () => cold<string>('10ms #', undefined, 'boom') },
        c: { index: 2, dependencies: [1], run: () => later },
      });
      expectObservable(schedule(calls, 3)).toBe('10ms #', undefined, 'boom');
      expectSubscriptions(running.subscriptions).toBe('^ 9ms !');
      expectSubscriptions(later.subscriptions).toBe([]);
    });
  });

  it('unsubscribing stops the calls running and reads no more of the source', () => {
    marbleScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const running = cold('20ms r|');
      const source = hot<EagerCall<string>>('a 9ms b', {
        a: { index: 0, dependencies: [], run: () => running },
        b: job(1, 1),
      });
      expectObservable(schedule(source, 2), '^ 4ms !').toBe('');
      expectSubscriptions(running.subscriptions).toBe('^ 4ms !');
      expectSubscriptions(source.subscriptions).toBe('^ 4ms !');
    });
  });

  it('longest-first: a freed slot goes to the best call waiting, not the first that came', () => {
    marbleScheduler().run(({ cold, expectObservable }) => {
      // One slot: a (1 ms) runs as it arrives alone; b, c, d arrive while it runs; then c
      // (estimate 5), d (3), b (2), each running its estimate.
      const calls = cold('a(bcd|)', {
        a: job(0, 1, [], 1),
        b: job(1, 2, [], 2),
        c: job(2, 5, [], 5),
        d: job(3, 3, [], 3),
      });
      expectObservable(schedule(calls, 1, 'longest-first')).toBe('1ms a 4ms c 2ms d 1ms (b|)');
    });
  });

  it('takes thousands of calls that end at once in order, without nesting one start in another', () => {
    const count = 5_000;
    const seen: number[] = [];
    from(
      Array.from({ length: count }, (_, index) => ({
        index,
        dependencies: index === 0 ? [] : [index - 1],
        run: () => of(index),
      })),
    )
      .pipe(scheduleEager<number>({ maxConcurrency: 1 }))
      .subscribe((value) => seen.push(value));
    expect(seen).toEqual(Array.from({ length: count }, (_, index) => index));
  });

  it('refuses a dependency on a call that has not arrived', () => {
    marbleScheduler().run(({ cold, expectObservable }) => {
      const calls = cold('(a|)', { a: job(0, 1, [3]) });
      expectObservable(schedule(calls, 1)).toBe(
        '#',
        undefined,
        new RangeError('Call 0 depends on call 3, which is not an earlier call that has arrived'),
      );
    });
  });
});
