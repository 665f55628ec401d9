import { Observable, type TeardownLogic } from 'rxjs';

/** How many subscriptions through {@link unnested} may nest in one synchronous stack. */
const MAX_NESTED = 32;
let nested = 0;

// `source`, subscribed at once, or after a microtask when MAX_NESTED such subscriptions are
// already nested in the stack (long runs of synchronous calls would overflow it).
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
