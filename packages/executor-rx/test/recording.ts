import type { Observable } from 'rxjs';
import type { CallEndEvent, CallStartEvent, DispatchEvent } from '../src/index.js';

/** Every event of a run, and how it ended: see {@link record}. */
export interface Recording {
  readonly events: DispatchEvent[];
  status: 'running' | 'complete' | 'error';
  error: unknown;
}

/**
 * Subscribes to a run and keeps each event and how the run ended, so a test can advance fake
 * time and then read what happened synchronously.
 *
 * @example
 * ```ts
 * const run = record(dispatcher.run(calls));
 * await vi.advanceTimersByTimeAsync(100);
 * expect(run.status).toBe('complete');
 * expect(starts(run.events).map((e) => e.toolCallId)).toEqual(['a', 'b']);
 * ```
 */
export function record(run: Observable<DispatchEvent>): Recording {
  const recording: Recording = { events: [], status: 'running', error: undefined };
  run.subscribe({
    next: (event) => recording.events.push(event),
    error: (error: unknown) => {
      recording.status = 'error';
      recording.error = error;
    },
    complete: () => {
      recording.status = 'complete';
    },
  });
  return recording;
}

/** The `call-start` events of a recording, in order. */
export const starts = (events: readonly DispatchEvent[]): CallStartEvent[] =>
  events.filter((event): event is CallStartEvent => event.type === 'call-start');

/** The `call-end` events of a recording, in order. */
export const ends = (events: readonly DispatchEvent[]): CallEndEvent[] =>
  events.filter((event): event is CallEndEvent => event.type === 'call-end');
