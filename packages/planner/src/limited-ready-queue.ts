import { describeValue } from './describe-value.js';
import { EagerQueue, type EagerQueueCall } from './eager-queue.js';
import { type LimitWeights, NamedLimits } from './named-limits.js';
import { PlannerError } from './planner-error.js';
import type { EagerPriority } from './types.js';
import { checkPlannerOptions } from './unknown-options.js';

/** Options of {@link LimitedReadyQueue}. */
export interface LimitedReadyQueueOptions {
  /** Which ready call comes out first among those that fit; default `'model-order'`. */
  readonly priority?: EagerPriority | undefined;
  /** The capacities the calls count against (may be shared with other queues). */
  readonly limits: NamedLimits;
}

/** One call for {@link LimitedReadyQueue.add}. */
export interface LimitedQueueCall extends EagerQueueCall {
  /** How much of each named limit it takes while it runs; none by default. */
  readonly limits?: LimitWeights | undefined;
}

const NO_NAMES: readonly string[] = [];

/**
 * The eager ready queue ({@link EagerQueue}) with named limits: {@link LimitedReadyQueue.take}
 * hands out the first ready call, by priority, whose weights all fit in `limits` now, and takes
 * them; {@link LimitedReadyQueue.end} gives them back. A ready call that does not fit is passed
 * over, never in the way: waiting for a limit holds back only calls that count against it (no
 * head-of-line blocking), and a call that counts against no limit never waits for one. Each call
 * passed over is told which limits had no room ({@link LimitedReadyQueue.limitWaitsOf}).
 *
 * Call `take` only when a slot is free: a call passed over then waited for a limit, not a slot.
 * Cost: O(ready calls) per `take`.
 *
 * @example
 * const limits = new NamedLimits({ api: 2 });
 * const queue = new LimitedReadyQueue({ limits });
 * queue.add({ index: 0, dependencies: [], limits: { api: 2 } });
 * queue.add({ index: 1, dependencies: [], limits: { api: 1 } });
 * queue.add({ index: 2, dependencies: [] });
 * queue.take(); // 0
 * queue.take(); // 2: call 1 waits for `api`, call 2 does not
 * queue.limitWaitsOf(1); // ['api']
 * queue.end(0); // gives back 2 of `api`
 * queue.take(); // 1
 * @see NamedLimits
 */
export class LimitedReadyQueue {
  readonly #queue: EagerQueue;
  readonly #limits: NamedLimits;
  readonly #before: (a: number, b: number) => number;
  /** Ready calls taken out of the eager queue and not handed out yet, by priority. */
  readonly #parked: number[] = [];
  readonly #weights: (LimitWeights | undefined)[] = [];
  readonly #taken: boolean[] = [];
  readonly #waits: (string[] | undefined)[] = [];
  readonly #estimates: number[] = [];

  /**
   * @throws {PlannerError} `invalid_options` for an unknown option, `limits` that are not a
   *   {@link NamedLimits}, or a bad `priority`.
   */
  constructor(options: LimitedReadyQueueOptions) {
    checkPlannerOptions({ subject: 'LimitedReadyQueue', options, known: ['priority', 'limits'] });
    if (
      !((options as Partial<LimitedReadyQueueOptions> | undefined)?.limits instanceof NamedLimits)
    ) {
      throw new PlannerError({
        code: 'invalid_options',
        message: `Expected \`limits\` to be a NamedLimits, got ${describeValue(options.limits)}`,
      });
    }
    this.#queue = new EagerQueue({ priority: options.priority });
    this.#limits = options.limits;
    const estimates = this.#estimates;
    this.#before =
      (options.priority ?? 'model-order') === 'longest-first'
        ? (a, b) => estimates[b]! - estimates[a]! || a - b
        : (a, b) => a - b;
  }

  /** How many added calls are ready and not handed out yet (fitting or not). */
  get readyCount(): number {
    return this.#parked.length + this.#queue.readyCount;
  }

  /** Adds a call (see {@link EagerQueue.add}); returns the dependencies it waits for. */
  add(call: LimitedQueueCall): readonly number[] {
    const waits = this.#queue.add(call);
    this.#weights[call.index] = call.limits;
    this.#estimates[call.index] = call.estimateMs ?? 0;
    return waits;
  }

  /**
   * The first ready call by priority whose weights fit now, with its weights taken; `undefined`
   * when none is ready or none fits. Calls passed over record the limits without room.
   */
  take(): number | undefined {
    const parked = this.#parked;
    for (let next = this.#queue.take(); next !== undefined; next = this.#queue.take()) {
      parked.splice(this.#position(next), 0, next);
    }
    for (let at = 0; at < parked.length; at++) {
      const call = parked[at]!;
      const weights = this.#weights[call];
      const blocked = weights === undefined ? NO_NAMES : this.#limits.blockers(weights);
      if (blocked.length === 0) {
        parked.splice(at, 1);
        if (weights !== undefined) this.#limits.take(weights);
        this.#taken[call] = true;
        return call;
      }
      let waits = this.#waits[call];
      if (waits === undefined) {
        waits = [];
        this.#waits[call] = waits;
      }
      for (const name of blocked) if (!waits.includes(name)) waits.push(name);
    }
    return undefined;
  }

  /**
   * Call `index` has ended: its weights go back (when it was handed out), and the calls waiting
   * for it alone become ready (see {@link EagerQueue.end}).
   */
  end(index: number): void {
    if (this.#taken[index] === true) {
      this.#taken[index] = false;
      const weights = this.#weights[index];
      this.#queue.end(index);
      if (weights !== undefined) this.#limits.give(weights);
      return;
    }
    this.#queue.end(index);
  }

  /** The limits call `index` was passed over for while a slot was free, in the order met. */
  limitWaitsOf(index: number): readonly string[] {
    return this.#waits[index] ?? NO_NAMES;
  }

  /** Where `call` goes in the parked list, by priority (binary search). */
  #position(call: number): number {
    const parked = this.#parked;
    let low = 0;
    let high = parked.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.#before(parked[middle]!, call) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
