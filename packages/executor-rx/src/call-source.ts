import type { ToolCall } from '@toolwaves/core';
import { describeValue } from '@toolwaves/core/internal';
import { isObservable, Observable } from 'rxjs';
import { invalidConfig } from './dispatch-error.js';

/** Tool calls the model is still writing: an async iterable or an Observable. */
export type ToolCallSource = AsyncIterable<ToolCall> | Observable<ToolCall>;

// A stream of tool calls as an Observable (`invalid_config` when it is neither); an async iterable
// is read one call at a time, and unsubscribing calls its `return()` at once, even mid-`next()`.
export function callSource(calls: ToolCallSource): Observable<ToolCall> {
  if (isObservable(calls)) return calls as Observable<ToolCall>;
  if (!isAsyncIterable(calls)) {
    throw invalidConfig(
      `Expected \`calls\` to be an AsyncIterable or an Observable of tool calls, got ${describeValue(calls)}`,
    );
  }
  return new Observable<ToolCall>((subscriber) => {
    let iterator: AsyncIterator<ToolCall> | undefined;
    let done = false;
    const failed = (error: unknown): void => {
      done = true;
      subscriber.error(error);
    };
    const pull = (): void => {
      try {
        iterator ??= calls[Symbol.asyncIterator]();
        Promise.resolve(iterator.next()).then(read, failed);
      } catch (error) {
        failed(error);
      }
    };
    const read = (result: IteratorResult<ToolCall>): void => {
      if (subscriber.closed) return;
      if (result.done === true) {
        done = true;
        subscriber.complete();
        return;
      }
      subscriber.next(result.value);
      if (!subscriber.closed) pull();
    };
    pull();
    // Unsubscribed: stop reading, and tell the iterator (its `return()`) unless it has ended;
    // its own failure to close (thrown or rejected) is not the dispatch's.
    return () => {
      if (done || iterator === undefined) return;
      done = true;
      try {
        Promise.resolve(iterator.return?.()).catch(() => undefined);
      } catch {
        // ignored, as a rejection is
      }
    };
  });
}

function isAsyncIterable(value: unknown): value is AsyncIterable<ToolCall> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}
