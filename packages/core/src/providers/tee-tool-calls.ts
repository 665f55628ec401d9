import type { ToolCall } from '../tool-call.js';

/**
 * A provider's stream split in two: every original event for the caller, and the tool calls for
 * the dispatcher, each the moment its arguments are complete. Both read one underlying stream
 * (whichever side asks first pulls the next event; the other side finds it buffered), so
 * neither swallows anything from the other.
 *
 * @example
 * ```ts
 * const { events, calls } = toolCallsFromOpenAIChatStream(stream);
 * const results = dispatcher.dispatchStream(calls);
 * for await (const chunk of events) process.stdout.write(chunk.choices[0]?.delta.content ?? '');
 * messages.push(...toOpenAIToolMessages(await results));
 * ```
 * @see toolCallsFromOpenAIChatStream
 * @see toolCallsFromOpenAIResponsesStream
 * @see toolCallsFromAnthropicStream
 */
export interface ToolCallStream<E> {
  /** Every event of the provider's stream, unchanged and in order; its errors too. */
  readonly events: AsyncIterable<E>;
  /**
   * The turn's tool calls in model order, each yielded as soon as it and every call before it
   * are complete. Fails when the provider reports an error or the stream itself fails.
   */
  readonly calls: AsyncIterable<ToolCall>;
}

/** Reads one provider's events into calls, for {@link teeToolCalls}. */
export interface ToolCallDecoder<E> {
  /**
   * Reads one event and returns the calls it made ready, in model order. Throws when the
   * event is the provider reporting an error.
   */
  read(event: E): readonly ToolCall[];
  /** The stream ended: the calls still waiting, each still open one answered as incomplete. */
  end(): readonly ToolCall[];
}

type Settled = { readonly ok: true } | { readonly ok: false; readonly error: unknown };

/** One side of the tee: its own queue over the shared pump. */
class TeeBranch<T> implements AsyncIterableIterator<T> {
  readonly queue: T[] = [];
  closed = false;
  /** Set once this side has nothing more to yield: normally, or with an error. */
  settled: Settled | undefined;
  readonly #pull: () => Promise<void>;
  readonly #onClose: () => Promise<void>;

  constructor(options: { pull: () => Promise<void>; onClose: () => Promise<void> }) {
    this.#pull = options.pull;
    this.#onClose = options.onClose;
  }

  async next(): Promise<IteratorResult<T>> {
    for (;;) {
      const value = this.queue.shift();
      if (value !== undefined) return { value, done: false };
      if (this.closed) return { value: undefined, done: true };
      const settled = this.settled;
      if (settled !== undefined) {
        if (settled.ok) return { value: undefined, done: true };
        this.closed = true;
        throw settled.error;
      }
      await this.#pull();
    }
  }

  async return(): Promise<IteratorResult<T>> {
    if (!this.closed) {
      this.closed = true;
      this.queue.length = 0;
      await this.#onClose();
    }
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/**
 * Splits a provider's event stream into its events and its tool calls (see
 * {@link ToolCallStream}). The source is read once, on demand, one event at a time; it is
 * closed early (its `return()`) only when both sides have been closed early.
 */
export function teeToolCalls<E>(options: {
  readonly source: AsyncIterable<E>;
  readonly decoder: ToolCallDecoder<E>;
}): ToolCallStream<E> {
  let iterator: AsyncIterator<E> | undefined;
  let pulling: Promise<void> | undefined;
  let finished = false;

  const step = async (): Promise<void> => {
    iterator ??= options.source[Symbol.asyncIterator]();
    let result: IteratorResult<E>;
    try {
      result = await iterator.next();
    } catch (error) {
      finished = true;
      events.settled = { ok: false, error };
      calls.settled ??= { ok: false, error };
      return;
    }
    if (result.done === true) {
      finished = true;
      events.settled = { ok: true };
      if (calls.settled === undefined) {
        calls.queue.push(...options.decoder.end());
        calls.settled = { ok: true };
      }
      return;
    }
    if (!events.closed) events.queue.push(result.value);
    if (calls.settled !== undefined || calls.closed) return;
    try {
      calls.queue.push(...options.decoder.read(result.value));
    } catch (error) {
      calls.settled = { ok: false, error };
    }
  };

  const pull = (): Promise<void> => {
    if (finished) return Promise.resolve();
    pulling ??= step().finally(() => {
      pulling = undefined;
    });
    return pulling;
  };

  const onClose = async (): Promise<void> => {
    if (!events.closed || !calls.closed || finished) return;
    finished = true;
    await iterator?.return?.();
  };

  const events = new TeeBranch<E>({ pull, onClose });
  const calls = new TeeBranch<ToolCall>({ pull, onClose });
  return { events, calls };
}
