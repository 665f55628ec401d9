import { fnTool, ToolRegistry } from '@toolwaves/core';
import { catchError, filter, map, of } from 'rxjs';
import { describe, it } from 'vitest';
import { type DispatchError, Dispatcher, exponentialBackoff } from '../src/index.js';
import { marbleScheduler } from './marble-scheduler.js';
import { call } from './tool-call.js';

/** Synchronous tools: the only time that passes is the dispatcher's own (back-off, timeouts). */
const registry = new ToolRegistry()
  .add(
    fnTool({
      name: 'broken',
      description: 'always fails',
      execute: () => {
        throw new Error('down');
      },
    }),
  )
  .add(fnTool({ name: 'fine', description: 'answers', execute: () => 'ok' }));

describe('the dispatcher on an RxJS TestScheduler', () => {
  it('backs off 10, 20, 40, 80, 160 ms, then fails: attempts on the marble timeline', () => {
    const testScheduler = marbleScheduler();
    testScheduler.run(({ expectObservable }) => {
      const dispatcher = new Dispatcher({
        registry,
        scheduler: testScheduler,
        recovery: { strategy: exponentialBackoff({ baseMs: 10 }) },
      });
      const attempts = dispatcher.run([call('a', 'broken')]).pipe(
        filter((event) => event.type === 'call-start'),
        map((event) => String(event.type === 'call-start' && event.attempt)),
        catchError((error: DispatchError) => of(error.code)),
      );
      expectObservable(attempts).toBe('1 9ms 2 19ms 3 39ms 4 79ms 5 159ms (6r|)', {
        1: '1',
        2: '2',
        3: '3',
        4: '4',
        5: '5',
        6: '6',
        r: 'recovery_exhausted',
      });
    });
  });

  it('measures durations and back-off waits on the scheduler clock', () => {
    const testScheduler = marbleScheduler();
    testScheduler.run(({ expectObservable }) => {
      const dispatcher = new Dispatcher({
        registry,
        recovery: {
          strategy: {
            name: 'once',
            decide: ({ failure }) =>
              failure.attempt === 1 ? { action: 'retry', delayMs: 25 } : { action: 'skip' },
          },
        },
      });
      const ends = dispatcher.run([call('a', 'broken'), call('b', 'fine')]).pipe(
        filter((event) => event.type === 'call-end' || event.type === 'batch-end'),
        map((event) =>
          event.type === 'call-end'
            ? `${event.toolCallId}${event.attempt}:${event.outcome}:${event.waitMs}`
            : `end:${event.type === 'batch-end' && event.durationMs}`,
        ),
      );
      expectObservable(ends).toBe('x 24ms (yzw|)', {
        x: 'a1:retry:0',
        y: 'a2:error:25',
        z: 'b1:ok:0',
        w: 'end:25',
      });
    });
  });
});
