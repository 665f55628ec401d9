/** A grant waiting in {@link FirstRenewals}: its place in the list, and what to do when due. */
export interface AwaitingRenewal {
  /** When its first renewal is due (`performance.now()` clock). */
  renewalDueAt: number;
  previousAwaiting: AwaitingRenewal | undefined;
  nextAwaiting: AwaitingRenewal | undefined;
  /** Its first renewal is due: it starts renewing its lease. */
  renewalDue(): void;
}

/**
 * The grants of one coordinator until their first renewal is due, kept with one timer for all
 * of them rather than one each: most grants are released long before it (a tool call takes
 * milliseconds, a lease seconds), and a timer made and cleared per grant costs more than the
 * rest of an uncontended cycle on the client. Every grant of a coordinator waits the same time
 * (a third of the lease), so they fall due in the order they were added: a doubly linked list
 * in that order, with the timer armed for its head. A grant released before its time leaves the
 * list at once (nothing to clear); one still held when its time comes is told, and from then on
 * renews its lease on its own ({@link LeaseRenewal}).
 */
export class FirstRenewals {
  readonly #delayMs: number;
  #head: AwaitingRenewal | undefined;
  #tail: AwaitingRenewal | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `delayMs`: how long after being added a grant's first renewal is due. */
  constructor(delayMs: number) {
    this.#delayMs = delayMs;
  }

  /** Adds `grant`, due `delayMs` from now. */
  add(grant: AwaitingRenewal): void {
    grant.renewalDueAt = performance.now() + this.#delayMs;
    grant.previousAwaiting = this.#tail;
    grant.nextAwaiting = undefined;
    if (this.#tail === undefined) this.#head = grant;
    else this.#tail.nextAwaiting = grant;
    this.#tail = grant;
    if (this.#timer === undefined) this.#arm(this.#delayMs);
  }

  /** Takes `grant` out (released before its first renewal); the timer is left as it is. */
  remove(grant: AwaitingRenewal): void {
    const { previousAwaiting: previous, nextAwaiting: next } = grant;
    if (previous === undefined) this.#head = next;
    else previous.nextAwaiting = next;
    if (next === undefined) this.#tail = previous;
    else next.previousAwaiting = previous;
    grant.previousAwaiting = undefined;
    grant.nextAwaiting = undefined;
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(this.#fire, Math.max(0, delayMs));
    this.#timer.unref?.();
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    let head = this.#head;
    while (head !== undefined && head.renewalDueAt <= now) {
      this.remove(head);
      head.renewalDue();
      head = this.#head;
    }
    if (head !== undefined) this.#arm(head.renewalDueAt - now);
  };
}
