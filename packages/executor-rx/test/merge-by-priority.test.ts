import { from, map, of, Subject, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { mergeByPriority } from '../src/merge-by-priority.js';
import { marbleScheduler } from './marble-scheduler.js';

/** Each value runs for `value` ms and then answers itself; larger values first. */
const largestFirst = (concurrency: number, onEnd?: (value: number) => void) =>
  mergeByPriority((value: number) => timer(value).pipe(map(() => value)), {
    concurrency,
    compare: (a, b) => b - a,
    onEnd,
  });

describe('mergeByPriority', () => {
  it('gives a free slot to the best waiting value, not the first that came', () => {
    marbleScheduler().run(({ cold, expectObservable }) => {
      // One slot: 1 runs as it arrives alone (0–1); 2, 5 and 3 arrive while it still runs.
      const values = cold('a(bcd|)', { a: 1, b: 2, c: 5, d: 3 });
      expectObservable(values.pipe(largestFirst(1))).toBe('1ms a 4ms b 2ms c 1ms (d|)', {
        a: 1,
        b: 5,
        c: 3,
        d: 2,
      });
    });
  });

  it('never leaves a slot free while a value waits, and respects the cap', () => {
    marbleScheduler().run(({ cold, expectObservable }) => {
      // Two slots: 2 and 9 take them as they arrive; at 2, 4 (better than 3) takes the free
      // slot; at 6, 3 does; all done at 9.
      const values = cold('(abcd|)', { a: 2, b: 9, c: 3, d: 4 });
      expectObservable(values.pipe(largestFirst(2))).toBe('2ms a 3ms b 2ms (cd|)', {
        a: 2,
        b: 4,
        c: 9,
        d: 3,
      });
    });
  });

  it('values that arrive during onEnd compete together for every free slot', () => {
    marbleScheduler().run(({ cold, expectObservable }) => {
      // Two slots, one used by 3. When 3 ends, onEnd brings 1, 8 and 5 at once: 8 and 5 take
      // the two free slots (1 came first but is worst); 1 runs when 5 ends.
      const source = new Subject<number>();
      const merged = source.pipe(
        largestFirst(2, (value) => {
          if (value !== 3) return;
          source.next(1);
          source.next(8);
          source.next(5);
        }),
      );
      cold('-a', { a: 3 }).subscribe(source); // at 1, once `merged` is subscribed to
      expectObservable(merged).toBe('4ms a 4ms b c 1ms d', { a: 3, b: 5, c: 1, d: 8 });
    });
  });

  it('an error from a value stops the others', () => {
    marbleScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const slow = cold('20ms s|');
      const values = cold('(ab|)', { a: 0, b: 1 });
      const merged = values.pipe(
        mergeByPriority((value: number) => (value === 0 ? slow : cold('5ms #', undefined, 'x')), {
          concurrency: 2,
          compare: (a, b) => a - b,
        }),
      );
      expectObservable(merged).toBe('5ms #', undefined, 'x');
      expectSubscriptions(slow.subscriptions).toBe('^ 4ms !');
    });
  });

  it('takes thousands of values best first, in order or not, as they arrive together', () => {
    // Mostly ascending (the plain queue, compacted as it goes), every 7th pair swapped (the heap).
    const values = Array.from({ length: 5_000 }, (_, i) => i);
    for (let i = 0; i + 1 < values.length; i += 7) {
      [values[i], values[i + 1]] = [values[i + 1]!, values[i]!];
    }
    const seen: number[] = [];
    from(values)
      .pipe(
        mergeByPriority((value: number) => of(value), { concurrency: 1, compare: (a, b) => a - b }),
      )
      .subscribe((value) => seen.push(value));
    expect(seen).toEqual([...values].sort((a, b) => a - b));
  });
});
