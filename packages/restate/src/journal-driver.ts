import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { type Context, RestatePromise } from '@restatedev/restate-sdk';
import { RestateTurnError } from './restate-turn-error.js';

interface PendingStep {
  readonly seq: number;
  readonly promise: RestatePromise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Hands the results of journaled steps to the scheduler one at a time, in an order the journal
 * keeps, so that the scheduler's decisions (and so the sequence of steps it starts) are the same
 * on every replay of the invocation.
 *
 * Why not plain `await ctx.run(...)` per call: on a replay every finished step is known at once,
 * so the promises of finished steps settle in whatever order the SDK resolves them, not in the
 * order they finished the first time; a scheduler reacting to them would start the next calls in
 * another order and Restate would refuse the journal. Here the first step to finish is found with
 * `RestatePromise.race` and its number is journaled as a step of its own (`completed N`): on a
 * replay that step answers from the journal, whatever the race says this time. After each
 * delivery the driver yields a macrotask, so every step the scheduler starts in reaction (through
 * promise callbacks only) is issued before the next journal action.
 */
export class JournalDriver {
  readonly #ctx: Context;
  readonly #pending: PendingStep[] = [];
  #issued = 0;
  #recorded = 0;
  #wake: (() => void) | undefined;

  constructor(ctx: Context) {
    this.#ctx = ctx;
  }

  /** Runs `action` as the journaled step `name`; resolves when the driver delivers its result. */
  step<T>(name: string, action: () => Promise<T>): Promise<T> {
    const seq = this.#issued++;
    const promise = this.#ctx.run(name, action) as RestatePromise<unknown>;
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ seq, promise, resolve: resolve as (value: unknown) => void, reject });
      this.#wake?.();
    });
  }

  /** Delivers step results until `until` has settled and no step is pending. */
  async drive(until: Promise<unknown>): Promise<void> {
    let done = false;
    const finished = until.then(
      () => {
        done = true;
      },
      () => {
        done = true;
      },
    );
    for (;;) {
      await nextMacrotask();
      if (this.#pending.length === 0) {
        if (done) return;
        // Nothing journaled is running: the scheduler waits on something else (its own timers).
        await Promise.race([finished, new Promise<void>((wake) => (this.#wake = wake))]);
        this.#wake = undefined;
        continue;
      }
      await this.#deliverNext();
    }
  }

  async #deliverNext(): Promise<void> {
    const pending = this.#pending;
    // One step running: no order to choose, and a replay finds the same single step here (the
    // set of running steps follows from what was delivered before), so nothing is journaled.
    const seq =
      pending.length === 1 ? (pending[0]?.seq ?? -1) : await this.#journalFirstFinished(pending);
    const at = pending.findIndex((step) => step.seq === seq);
    const step = pending[at];
    if (step === undefined) {
      throw new RestateTurnError({
        code: 'journal_mismatch',
        message: `The journal says step ${String(seq)} finished next, but no such step is running: the handler's code changed between two runs of this invocation`,
      });
    }
    pending.splice(at, 1);
    try {
      step.resolve(await step.promise);
    } catch (error) {
      step.reject(error);
    }
  }

  async #journalFirstFinished(pending: readonly PendingStep[]): Promise<number> {
    const first = await RestatePromise.race(
      pending.map(({ seq, promise }) => promise.map(() => seq)),
    );
    return this.#ctx.run(`completed ${this.#recorded++}`, async () => first);
  }
}
