/**
 * The calls waiting on each framework signal, with one `abort` listener per signal however many
 * calls share it (a graph's signal is shared by every call of a run).
 *
 * @example
 * ```ts
 * const waiters = new SignalWaiters();
 * const answer = await waiters.whileWaiting({
 *   promise: ran,
 *   signal,
 *   started,
 *   aborted: () => ({ kind: 'aborted', reason: signal.reason }),
 * });
 * ```
 */
export class SignalWaiters {
  readonly #waiting = new Map<
    AbortSignal,
    { readonly waiters: Set<() => void>; readonly onAbort: () => void }
  >();

  /**
   * `promise`, or `aborted()` as soon as the signal aborts while the call is still waiting (a
   * call that has started is left to finish: the framework's tool has the signal too).
   */
  whileWaiting<T>(options: {
    readonly promise: Promise<T>;
    readonly signal: AbortSignal;
    readonly started: { readonly value: boolean };
    readonly aborted: () => T;
  }): Promise<T> {
    const { promise, signal, started, aborted } = options;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        if (!started.value) resolve(aborted());
      };
      this.#add(signal, onAbort);
      promise.then(
        (value) => {
          this.#remove(signal, onAbort);
          resolve(value);
        },
        (error: unknown) => {
          this.#remove(signal, onAbort);
          reject(error);
        },
      );
    });
  }

  #add(signal: AbortSignal, waiter: () => void): void {
    let entry = this.#waiting.get(signal);
    if (entry === undefined) {
      const waiters = new Set<() => void>();
      const onAbort = () => {
        for (const wake of waiters) wake();
      };
      entry = { waiters, onAbort };
      this.#waiting.set(signal, entry);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    entry.waiters.add(waiter);
  }

  #remove(signal: AbortSignal, waiter: () => void): void {
    const entry = this.#waiting.get(signal);
    if (entry === undefined) return;
    entry.waiters.delete(waiter);
    if (entry.waiters.size > 0) return;
    this.#waiting.delete(signal);
    signal.removeEventListener('abort', entry.onAbort);
  }
}
