/** One command waiting for its answer. */
interface Pending {
  readonly deadline: number;
  readonly reject: (error: Error) => void;
  done: boolean;
}

/**
 * The answer deadlines of one connection's commands, kept with one timer for the connection
 * rather than one per command. A connection answers in order, so the oldest command unanswered
 * has the earliest deadline: the timer is armed for it, and when it fires every command past
 * its deadline fails (a frozen server or a half-open link answers none of them).
 */
export class CommandDeadlines {
  readonly #timeoutMs: number;
  #pending: Pending[] = [];
  #head = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Sends through `send` and settles with its answer, or rejects with `no answer within N ms`
   * once the deadline has passed.
   */
  watch<T>(send: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = { deadline: performance.now() + this.#timeoutMs, reject, done: false };
      this.#pending.push(entry);
      if (this.#timer === undefined) this.#arm(this.#timeoutMs);
      send().then(
        (value) => {
          this.#settle(entry);
          resolve(value);
        },
        (error: unknown) => {
          this.#settle(entry);
          reject(error);
        },
      );
    });
  }

  /** Stops the timer (the connection is closed). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #settle(entry: Pending): void {
    entry.done = true;
    const pending = this.#pending;
    while (this.#head < pending.length && (pending[this.#head] as Pending).done) this.#head += 1;
    if (this.#head === pending.length) {
      this.#pending = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > pending.length) {
      this.#pending = pending.slice(this.#head);
      this.#head = 0;
    }
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(this.#check, Math.max(0, delayMs));
    this.#timer.unref?.();
  }

  readonly #check = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    for (let i = this.#head; i < this.#pending.length; i += 1) {
      const entry = this.#pending[i] as Pending;
      if (entry.done) continue;
      if (entry.deadline > now) {
        this.#arm(entry.deadline - now);
        return;
      }
      entry.done = true;
      entry.reject(new Error(`no answer within ${this.#timeoutMs} ms`));
    }
    this.#pending = [];
    this.#head = 0;
  };
}
