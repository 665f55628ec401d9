import type { ToolCall } from '@toolwaves/core';
import { describeValue } from '@toolwaves/core/internal';
import { isObservable, Observable, type Subscriber } from 'rxjs';
import { DispatchError } from './dispatch-error.js';

/** Tool calls the model is still writing: an async iterable or an Observable. */
export type ToolCallSource = AsyncIterable<ToolCall> | Observable<ToolCall>;

/**
 * A stream of tool calls as an Observable. An async iterable is read one call at a time;
 * unsubscribing stops reading it at once and calls the iterator's `return()` (so a generator
 * runs its `finally` blocks and a network stream can close), even while a `next()` is pending.
 *
 * @throws DispatchError `invalid_config` (synchronously) when `calls` is neither.
 * @example
 * ```ts
 * callSource(streamOfCalls).subscribe((call) => console.log(call.id));
 * ```
 * @see Dispatcher.runStream
 */
export function callSource(calls: ToolCallSource): Observable<ToolCall> {
  if (isObservable(calls)) return calls as Observable<ToolCall>;
  if (!isAsyncIterable(calls)) {
    throw new DispatchError({
      code: 'invalid_config',
      message: `Expected \`calls\` to be an AsyncIterable or an Observable of tool calls, got ${describeValue(calls)}`,
    });
  }
  return new Observable<ToolCall>((subscriber) => {
    const reader = new IteratorReader(subscriber);
    reader.start(calls);
    return () => reader.stop();
  });
}

/** Reads an async iterator one call at a time into a subscriber. */
class IteratorReader {
  readonly #subscriber: Subscriber<ToolCall>;
  #iterator: AsyncIterator<ToolCall> | undefined;
  #done = false;
  readonly #onResult = (result: IteratorResult<ToolCall>): void => {
    const subscriber = this.#subscriber;
    if (subscriber.closed) return;
    if (result.done === true) {
      this.#done = true;
      subscriber.complete();
      return;
    }
    subscriber.next(result.value);
    if (!subscriber.closed) this.#pull();
  };
  readonly #onError = (error: unknown): void => {
    this.#done = true;
    this.#subscriber.error(error);
  };

  constructor(subscriber: Subscriber<ToolCall>) {
    this.#subscriber = subscriber;
  }

  start(calls: AsyncIterable<ToolCall>): void {
    try {
      this.#iterator = calls[Symbol.asyncIterator]();
    } catch (error) {
      this.#onError(error);
      return;
    }
    this.#pull();
  }

  /** Unsubscribed: stop reading, and tell the iterator (its `return()`) unless it has ended. */
  stop(): void {
    if (this.#done || this.#iterator === undefined) return;
    this.#done = true;
    try {
      // The iterator's own failure to close is not the dispatch's: nothing waits for it.
      Promise.resolve(this.#iterator.return?.()).catch(() => undefined);
    } catch {
      // A synchronous throw from `return()` likewise.
    }
  }

  #pull(): void {
    let next: Promise<IteratorResult<ToolCall>>;
    try {
      next = Promise.resolve((this.#iterator as AsyncIterator<ToolCall>).next());
    } catch (error) {
      this.#onError(error);
      return;
    }
    next.then(this.#onResult, this.#onError);
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<ToolCall> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}
