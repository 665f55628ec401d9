import { from, type Observable, of } from 'rxjs';

/** A value a hook, reflector, strategy or tool may answer now or later. */
export type MaybeAsync<T> = T | PromiseLike<T>;

/** Whether an answer must be awaited (anything with a `then`). */
export function isPromiseLike<T>(value: MaybeAsync<T>): value is PromiseLike<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** An answer given now or later as an Observable. */
export function fromMaybeAsync<T>(value: MaybeAsync<T>): Observable<T> {
  return isPromiseLike(value) ? from(value) : of(value);
}
