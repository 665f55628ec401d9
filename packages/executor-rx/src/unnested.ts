import { Observable, type TeardownLogic } from 'rxjs';

/** How many subscriptions through {@link unnested} may nest in one synchronous stack. */
const MAX_NESTED = 32;
let nested = 0;

/**
 * `source`, subscribed at once — unless {@link MAX_NESTED} subscriptions through `unnested`
 * are already nested in the current stack, then after a microtask. Work that ends
 * synchronously makes `mergeMap` and `concatMap` start the next piece from inside its
 * completion, so a long run of it (thousands of synchronous calls, one-call waves) nests one
 * start in another until the stack overflows; waiting a microtask now and then unwinds it.
 *
 * @example
 * ```ts
 * from(waves).pipe(concatMap((wave) => unnested(runWave(wave))));
 * ```
 */
export function unnested<T>(source: Observable<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    if (nested < MAX_NESTED) {
      nested += 1;
      try {
        return source.subscribe(subscriber);
      } finally {
        nested -= 1;
      }
    }
    let teardown: TeardownLogic;
    queueMicrotask(() => {
      if (!subscriber.closed) teardown = source.subscribe(subscriber);
    });
    return () => {
      if (teardown !== undefined && typeof teardown !== 'function') teardown.unsubscribe();
    };
  });
}
