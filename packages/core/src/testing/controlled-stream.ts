/** A stream a test feeds by hand: see {@link controlledStream}. */
export interface ControlledStream<T> extends AsyncIterable<T> {
  /** Hands the next value to the reader (buffered until it asks). */
  push(...values: T[]): void;
  /** Ends the stream after the values pushed so far. */
  end(): void;
  /** Makes the stream fail with `error` after the values pushed so far. */
  fail(error: unknown): void;
  /** How many values the reader has asked for so far (`next()` calls). */
  readonly pulls: number;
  /** Whether the reader closed the stream early (`return()`). */
  readonly returned: boolean;
}

type Entry<T> =
  | { readonly kind: 'value'; readonly value: T }
  | { readonly kind: 'end' }
  | { readonly kind: 'fail'; readonly error: unknown };

/**
 * An async iterable whose values a test pushes one step at a time, so it can check what a
 * consumer did while the rest of the stream is still pending (no timers involved). One reader.
 *
 * @example
 * ```ts
 * const source = controlledStream<Chunk>();
 * const { calls } = toolCallsFromOpenAIChatStream(source);
 * const first = calls[Symbol.asyncIterator]().next();
 * source.push(chunkStartingCall0, chunkStartingCall1);
 * expect((await first).value?.id).toBe('call_0'); // the stream has not ended
 * ```
 */
export function controlledStream<T>(): ControlledStream<T> {
  const entries: Entry<T>[] = [];
  const waiting: ((entry: Entry<T>) => void)[] = [];
  let pulls = 0;
  let returned = false;
  let over = false;

  const offer = (entry: Entry<T>): void => {
    const reader = waiting.shift();
    if (reader === undefined) entries.push(entry);
    else reader(entry);
  };
  const read = (entry: Entry<T>): IteratorResult<T> => {
    if (entry.kind === 'value') return { value: entry.value, done: false };
    over = true;
    if (entry.kind === 'fail') throw entry.error;
    return { value: undefined, done: true };
  };

  return {
    push(...values: T[]): void {
      for (const value of values) offer({ kind: 'value', value });
    },
    end(): void {
      offer({ kind: 'end' });
    },
    fail(error: unknown): void {
      offer({ kind: 'fail', error });
    },
    get pulls(): number {
      return pulls;
    },
    get returned(): boolean {
      return returned;
    },
    [Symbol.asyncIterator](): AsyncIterator<T> {
      return {
        async next(): Promise<IteratorResult<T>> {
          if (over || returned) return { value: undefined, done: true };
          pulls += 1;
          const entry = entries.shift();
          if (entry !== undefined) return read(entry);
          return read(await new Promise<Entry<T>>((resolve) => waiting.push(resolve)));
        },
        async return(): Promise<IteratorResult<T>> {
          returned = true;
          return { value: undefined, done: true };
        },
      };
    },
  };
}
