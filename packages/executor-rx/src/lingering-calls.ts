import { conflicts, type PlanNode } from '@toolwaves/planner';
import { Observable, type SchedulerLike, type Subscriber, type Subscription } from 'rxjs';
import type { SettleTimeoutEvent } from './dispatch-event.js';

/** Options of {@link LingeringCalls}. */
export interface LingeringCallsOptions {
  /** Timers and clock (the dispatcher's). */
  readonly scheduler: SchedulerLike;
  /** How long keys stay held for a tool that does not settle, in ms (`Infinity`: until it does). */
  readonly settleTimeoutMs: number;
}

/** What {@link LingeringCalls.hold} takes: the call whose tool still runs. */
export interface LingeringCallOptions {
  /** Its declarations (its keys, and whether it is concurrency-safe at all). */
  readonly node: PlanNode;
  readonly toolCallId: string;
  readonly toolName: string;
  /** Runs once when the keys are given back (the tool settled, or the settle timeout passed). */
  readonly onRelease?: () => void;
}

/** A lingering call's hold on its keys; `release()` when its tool has settled. */
export interface LingeringHold {
  /** Gives the keys back (idempotent). */
  release(): void;
}

interface Entry {
  readonly options: LingeringCallOptions;
  readonly heldAt: number;
  timer: Subscription | undefined;
  released: boolean;
}

interface Waiter {
  readonly node: PlanNode;
  readonly subscriber: Subscriber<SettleTimeoutEvent>;
}

/**
 * The calls of a dispatcher whose slot has been answered (they timed out, lost their fleet
 * lease, or their batch was cancelled or failed) but whose tool ignored its signal and is still
 * running. Their keys stay held until the tool really settles, or `settleTimeoutMs` at most;
 * then they are given back anyway and every call waiting for them gets a
 * {@link SettleTimeoutEvent}. One instance per `Dispatcher`, shared by all its batches, so the
 * next turn does not race a tool the previous turn gave up on.
 *
 * Nobody waits for a lingering call unless it needs a conflicting key: a scheduler asks
 * {@link LingeringCalls.whenClear} for the call it is about to run, and starts it when that
 * completes. The per-call pipeline (`runCall`) already does so just before it takes fleet
 * locks, in every mode; a scheduler that would rather not spend a slot on the wait (eager mode)
 * may wait for `whenClear(node)` itself before taking a slot — the pipeline's own check then
 * passes at once.
 *
 * @example
 * ```ts
 * const hold = lingering.hold({ node, toolCallId: 'a', toolName: 'write_file' });
 * toolPromise.finally(() => hold.release());
 * lingering.whenClear(otherNode).subscribe({ complete: () => start() }); // waits only on conflict
 * ```
 */
export class LingeringCalls {
  readonly #scheduler: SchedulerLike;
  readonly #settleTimeoutMs: number;
  readonly #entries = new Set<Entry>();
  readonly #waiters = new Set<Waiter>();

  constructor(options: LingeringCallsOptions) {
    this.#scheduler = options.scheduler;
    this.#settleTimeoutMs = options.settleTimeoutMs;
  }

  /** How many calls linger now. */
  get size(): number {
    return this.#entries.size;
  }

  /** Holds a call's keys until `release()` or the settle timeout, whichever comes first. */
  hold(options: LingeringCallOptions): LingeringHold {
    const entry: Entry = {
      options,
      heldAt: this.#scheduler.now(),
      timer: undefined,
      released: false,
    };
    this.#entries.add(entry);
    if (Number.isFinite(this.#settleTimeoutMs)) {
      entry.timer = this.#scheduler.schedule(
        () => this.#release(entry, true),
        this.#settleTimeoutMs,
      );
    }
    return { release: () => this.#release(entry, false) };
  }

  /** Whether a lingering call holds a key that conflicts with `node` (or either is not concurrency-safe). */
  blocks(node: PlanNode): boolean {
    for (const entry of this.#entries) if (conflicts(entry.options.node, node)) return true;
    return false;
  }

  /**
   * Completes once no lingering call conflicts with `node` (at once, synchronously, when none
   * does). Emits a {@link SettleTimeoutEvent} for each conflicting call given up on while it waits.
   * Unsubscribing stops waiting.
   */
  whenClear(node: PlanNode): Observable<SettleTimeoutEvent> {
    return new Observable<SettleTimeoutEvent>((subscriber) => {
      if (!this.blocks(node)) {
        subscriber.complete();
        return undefined;
      }
      const waiter: Waiter = { node, subscriber };
      this.#waiters.add(waiter);
      return () => {
        this.#waiters.delete(waiter);
      };
    });
  }

  #release(entry: Entry, timedOut: boolean): void {
    if (entry.released) return;
    entry.released = true;
    entry.timer?.unsubscribe();
    this.#entries.delete(entry);
    const { node, toolCallId, toolName, onRelease } = entry.options;
    onRelease?.();
    for (const waiter of [...this.#waiters]) {
      if (timedOut && conflicts(node, waiter.node)) {
        waiter.subscriber.next({
          type: 'settle-timeout',
          toolCallId,
          toolName,
          heldMs: this.#scheduler.now() - entry.heldAt,
        });
      }
      if (!this.blocks(waiter.node)) waiter.subscriber.complete();
    }
  }
}
