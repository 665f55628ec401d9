import type { ToolCall } from '@toolwaves/core';
import type { Observable } from 'rxjs';
import type { CallEndEvent, CallStartEvent, DispatchEvent } from '../src/index.js';

/** A promise's state, readable synchronously after advancing fake time. */
export { type TrackedPromise as Tracked, trackPromise as track } from '@toolwaves/core/testing';

/** Every event of a run, and how it ended. */
export interface Recording {
  readonly events: DispatchEvent[];
  status: 'running' | 'complete' | 'error';
  error: unknown;
}

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

export const starts = (events: readonly DispatchEvent[]): CallStartEvent[] =>
  events.filter((event): event is CallStartEvent => event.type === 'call-start');

export const ends = (events: readonly DispatchEvent[]): CallEndEvent[] =>
  events.filter((event): event is CallEndEvent => event.type === 'call-end');

export const call = (id: string, name: string, input: unknown = {}): ToolCall => ({
  id,
  name,
  input,
});
