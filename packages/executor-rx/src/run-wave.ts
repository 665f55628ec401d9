import type { Wave } from '@toolwaves/planner';
import { concat, defer, EMPTY, from, mergeMap, Observable, of } from 'rxjs';
import type { BatchState } from './batch-state.js';
import type { DispatchEvent } from './dispatch-event.js';
import { type CallContext, runCall } from './run-call.js';
import { startNested } from './start-nested.js';

/**
 * One wave: `wave-start`, its calls through `mergeMap(runCall, cap)` (a call takes its slot
 * when it is subscribed, so a wave larger than the cap admits the rest as slots free up; a
 * one-call wave subscribes its call directly), `wave-end` when all have ended. A wave whose
 * turn comes after a hard error (or a cancel) does not start: this is the wave-boundary check.
 * Without progress events (`dispatch`) the wave and call events are not emitted.
 */
export function runWave(
  batch: BatchState,
  wave: Wave,
  position: number,
  cap: number,
  sequential: boolean,
): Observable<DispatchEvent> {
  return new Observable<DispatchEvent>((subscriber) => {
    startNested(batch, subscriber, {
      start: () => {
        if (batch.failure !== undefined) {
          subscriber.complete();
          return;
        }
        batch.waveStartedAt = batch.now();
        waveEvents(batch, wave, position, cap, sequential).subscribe(subscriber);
      },
    });
  });
}

function waveEvents(
  batch: BatchState,
  wave: Wave,
  position: number,
  cap: number,
  sequential: boolean,
): Observable<DispatchEvent> {
  const { calls } = wave;
  const context: CallContext = { batch, wave: position, readyAt: batch.waveStartedAt };
  const waits = batch.instrument === undefined ? undefined : batch.dependencies(sequential);
  const callOf = (index: number): Observable<DispatchEvent> =>
    runCall(
      batch.prepared.call(index),
      waits === undefined ? context : { ...context, waitedFor: waits[index] },
    );
  const run = calls.length === 1 ? callOf(calls[0]!) : from(calls).pipe(mergeMap(callOf, cap));
  if (!batch.progressEvents) return run;
  return concat(
    of<DispatchEvent>({ type: 'wave-start', wave: position, calls }),
    run,
    defer(() =>
      batch.failure === undefined ? of<DispatchEvent>({ type: 'wave-end', wave: position }) : EMPTY,
    ),
  );
}
