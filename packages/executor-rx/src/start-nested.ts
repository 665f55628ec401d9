import type { Subscriber } from 'rxjs';
import type { BatchState } from './batch-state.js';

/** How many wave or call starts may nest in one synchronous stack before one waits a microtask. */
export const MAX_SYNC_DEPTH = 64;

/** Something that starts when subscribed to. */
export interface Startable {
  start(): void;
}

/**
 * Starts a wave or a call now, or after a microtask when {@link MAX_SYNC_DEPTH} starts are
 * already nested in the current stack. Calls (and waves) that end synchronously make
 * `mergeMap` and `concatMap` start the next one from inside their own completion, so a long
 * run of them nests one start inside another until the stack overflows; waiting a microtask
 * every so often unwinds it. After the wait nothing starts when the batch has failed (the
 * subscriber completes) or nobody listens any more.
 */
export function startNested(
  batch: BatchState,
  subscriber: Subscriber<unknown>,
  startable: Startable,
): void {
  if (batch.syncDepth < MAX_SYNC_DEPTH) {
    batch.syncDepth += 1;
    try {
      startable.start();
    } finally {
      batch.syncDepth -= 1;
    }
    return;
  }
  queueMicrotask(() => {
    if (subscriber.closed) return;
    if (batch.failure !== undefined) subscriber.complete();
    else startNested(batch, subscriber, startable);
  });
}
