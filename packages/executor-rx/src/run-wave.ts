import type { Wave } from '@toolwaves/planner';
import { concat, defer, EMPTY, from, mergeMap, type Observable, of } from 'rxjs';
import type { BatchRun } from './batch-run.js';
import type { DispatchEvent } from './dispatch-event.js';
import { runCall } from './run-call.js';

/**
 * One wave: `wave-start`, its calls through `mergeMap(runCall, cap)` (a call takes its slot
 * when it is subscribed, so a wave larger than the cap admits the rest as slots free up),
 * `wave-end` when all have ended. A wave whose turn comes after a hard error (or a cancel)
 * does not start: this is the wave-boundary check.
 */
export function runWave(
  batch: BatchRun,
  wave: Wave,
  position: number,
  cap: number,
): Observable<DispatchEvent> {
  return defer(() => {
    if (batch.failure !== undefined) return EMPTY;
    batch.waveStartedAt = batch.now();
    return concat(
      of<DispatchEvent>({ type: 'wave-start', wave: position, calls: wave.calls }),
      from(wave.calls).pipe(mergeMap((index) => runCall(batch, index, position), cap)),
      defer(() =>
        batch.failure === undefined
          ? of<DispatchEvent>({ type: 'wave-end', wave: position })
          : EMPTY,
      ),
    );
  });
}
