import type { LimitWeights, NamedLimits } from '@toolwaves/planner';
import { from, type Observable } from 'rxjs';
import type { DispatchEvent } from './dispatch-event.js';
import { type EagerCall, scheduleEager } from './schedule-eager.js';

/** Options of {@link limitedWave}. */
export interface LimitedWaveOptions {
  /** The wave's calls, ascending. */
  readonly calls: readonly number[];
  /** Calls running at once. */
  readonly cap: number;
  /** The Dispatcher's named limits (shared by its batches). */
  readonly limits: NamedLimits;
  /** How much of each limit call `index` takes; `undefined` for none. */
  readonly weightsOf: (index: number) => LimitWeights | undefined;
  /** Call `index`'s events, told the limits it waited for. */
  readonly run: (index: number, limitWaits: readonly string[]) => Observable<DispatchEvent>;
}

const NO_CALLS: readonly number[] = [];

/**
 * The calls of one wave under the cap and the Dispatcher's named limits: in model order, each as
 * soon as a slot is free and its weights fit; a call that does not fit holds back no other (the
 * same ready queue as eager mode, with no dependencies: a wave's calls have none among them).
 */
export function limitedWave(options: LimitedWaveOptions): Observable<DispatchEvent> {
  const { calls, cap, limits, weightsOf, run } = options;
  const members = calls.map(
    (index): EagerCall<DispatchEvent> => ({
      index,
      dependencies: NO_CALLS,
      limits: weightsOf(index),
      run: (_, limitWaits) => run(index, limitWaits ?? []),
    }),
  );
  return from(members).pipe(scheduleEager<DispatchEvent>({ maxConcurrency: cap, limits }));
}
