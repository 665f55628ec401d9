import type { CoordinationGrant } from '@toolwaves/core';
import { conflicts, type PlanNode } from '@toolwaves/planner';
import { Observable, type SchedulerLike, type Subscriber, type Subscription } from 'rxjs';
import type { SettleTimeoutEvent } from './dispatch-event.js';

/** Options of {@link OutlivingTools}. */
export interface OutlivingToolsOptions {
  /** Timers and clock (the dispatcher's). */
  readonly scheduler: SchedulerLike;
  /** How long keys stay held for a tool that does not settle, in ms (`Infinity`: until it does). */
  readonly settleTimeoutMs: number;
}

/** What {@link OutlivingTools.hold} takes: a tool still running after its call was answered. */
export interface OutlivingTool {
  /** Its call's declarations (its keys, and whether it is concurrency-safe at all). */
  readonly node: PlanNode;
  readonly toolCallId: string;
  readonly toolName: string;
  /** Its fleet grant, given back when the tool settles (never before: it may still write). */
  readonly grant?: CoordinationGrant | undefined;
}

interface Entry {
  readonly tool: OutlivingTool;
  readonly heldAt: number;
  timer: Subscription | undefined;
  keysHeld: boolean;
  grantHeld: boolean;
}

interface Waiter {
  readonly node: PlanNode;
  readonly subscriber: Subscriber<SettleTimeoutEvent>;
}

/** The tools of a dispatcher that outlived their answer. */
export class OutlivingTools {
  readonly #options: OutlivingToolsOptions;
  readonly #entries = new Set<Entry>();
  readonly #waiters = new Set<Waiter>();

  constructor(options: OutlivingToolsOptions) {
    this.#options = options;
  }

  /** How many outliving tools still hold their keys. */
  get size(): number {
    return this.#entries.size;
  }

  /** Holds a tool's keys (until it settles or the settle timeout) and its grant (until it settles):
   * `settled()` (idempotent) when the tool has settled at last. */
  hold(tool: OutlivingTool): { settled(): void } {
    const entry: Entry = {
      tool,
      heldAt: this.#options.scheduler.now(),
      timer: undefined,
      keysHeld: true,
      grantHeld: tool.grant !== undefined,
    };
    this.#entries.add(entry);
    if (Number.isFinite(this.#options.settleTimeoutMs)) {
      entry.timer = this.#options.scheduler.schedule(
        () => this.#giveKeysBack(entry, true),
        this.#options.settleTimeoutMs,
      );
    }
    return {
      settled: () => {
        this.#giveKeysBack(entry, false);
        if (!entry.grantHeld) return;
        entry.grantHeld = false;
        giveBack(tool.grant!);
      },
    };
  }

  /** Whether an outliving tool holds a key that conflicts with `node` (or either is not concurrency-safe). */
  blocks(node: PlanNode): boolean {
    for (const entry of this.#entries) if (conflicts(entry.tool.node, node)) return true;
    return false;
  }

  /** Completes once no outliving tool conflicts with `node`. */
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

  #giveKeysBack(entry: Entry, timedOut: boolean): void {
    if (!entry.keysHeld) return;
    entry.keysHeld = false;
    entry.timer?.unsubscribe();
    this.#entries.delete(entry);
    const { node, toolCallId, toolName } = entry.tool;
    for (const waiter of [...this.#waiters]) {
      if (timedOut && conflicts(node, waiter.node)) {
        waiter.subscriber.next({
          type: 'settle-timeout',
          toolCallId,
          toolName,
          heldMs: this.#options.scheduler.now() - entry.heldAt,
        });
      }
      if (!this.blocks(waiter.node)) waiter.subscriber.complete();
    }
  }
}

/** Gives a fleet grant back; a release that throws or rejects is ignored (the lease expires). */
export function giveBack(grant: CoordinationGrant): void {
  try {
    grant.release().then(undefined, () => undefined);
  } catch {
    // ignored, as a rejection is
  }
}
