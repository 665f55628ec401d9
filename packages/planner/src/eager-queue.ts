import { BinaryHeap } from './binary-heap.js';
import { describeValue } from './describe-value.js';
import { PlannerError } from './planner-error.js';
import type { EagerPriority } from './types.js';
import { checkPlannerOptions } from './unknown-options.js';

/** Options of {@link EagerQueue}. */
export interface EagerQueueOptions {
  /** Which ready call comes out first; default `'model-order'`. */
  readonly priority?: EagerPriority | undefined;
}

/** One call for {@link EagerQueue.add}. */
export interface EagerQueueCall {
  /** Position in model order (calls may be added in any order, each once). */
  readonly index: number;
  /** The calls that must end before this one may start (e.g. from `dependencies`). */
  readonly dependencies: readonly number[];
  /** Expected duration, for `longest-first`; missing counts as 0. */
  readonly estimateMs?: number | undefined;
}

/** What a call that waits for nothing waits for. */
const NO_WAITS: readonly number[] = Object.freeze([]);

/**
 * The ready queue of eager scheduling, pure: each added call waits until every call it
 * depends on has {@link EagerQueue.end ended}, then becomes ready; {@link EagerQueue.take}
 * hands out the ready calls by priority (the earliest in model order, or the longest
 * estimate first, ties in model order). It keeps, per call, the count of dependencies still
 * pending and its dependents, so an end releases exactly the calls it was the last wait of.
 * A dependency may be added after the call that depends on it (a simulator's arrivals out of
 * model order); one that has already ended is not waited for. Who takes calls, how many run at
 * once and when time passes is the caller's business: the simulator (`simulateEager`) and the
 * Dispatcher's scheduler both drive this one queue.
 *
 * Cost: O(log n) per `add` / `take`, O(dependents) per `end`.
 *
 * @example
 * const queue = new EagerQueue();
 * queue.add({ index: 0, dependencies: [] }); // ready
 * queue.add({ index: 1, dependencies: [0] }); // waits for 0
 * queue.take(); // 0
 * queue.take(); // undefined
 * queue.end(0); // 1 is ready
 * queue.take(); // 1
 * @see simulateEager
 * @see dependencies
 */
export class EagerQueue {
  readonly #ready: BinaryHeap;
  /** Per call: dependencies not ended yet; -1 once the call was handed out or ended. */
  readonly #pending: number[] = [];
  readonly #dependents: (number[] | undefined)[] = [];
  readonly #ended: boolean[] = [];
  readonly #estimates: number[] = [];
  #waiting = 0;

  constructor(options: EagerQueueOptions = {}) {
    checkPlannerOptions({ subject: 'EagerQueue', options, known: ['priority'] });
    const priority = options.priority ?? 'model-order';
    if (priority !== 'model-order' && priority !== 'longest-first') {
      throw new PlannerError({
        code: 'invalid_options',
        message: `Expected \`priority\` to be 'model-order' or 'longest-first', got ${describeValue(priority)}`,
      });
    }
    const estimates = this.#estimates;
    this.#ready = new BinaryHeap(
      priority === 'longest-first'
        ? (a, b) => estimates[b]! - estimates[a]! || a - b
        : (a, b) => a - b,
    );
  }

  /** How many added calls are ready and not taken yet. */
  get readyCount(): number {
    return this.#ready.size;
  }

  /** How many added calls still wait for a dependency. */
  get waitingCount(): number {
    return this.#waiting;
  }

  /**
   * Adds a call; returns its dependencies that have not ended yet, ascending (what it waits
   * for). It is ready at once when there are none.
   *
   * @throws {PlannerError} `invalid_nodes` for an index already added or not an integer from 0
   *   up, or a dependency that is not another call's index.
   */
  add(call: EagerQueueCall): readonly number[] {
    const { index, dependencies, estimateMs } = call;
    if (!Number.isInteger(index) || index < 0 || this.#pending[index] !== undefined) {
      throw new PlannerError({
        code: 'invalid_nodes',
        message: `Expected a new call index (an integer from 0 up), got ${describeValue(index)}`,
      });
    }
    // A call that waits for nothing (the usual keyless safe call) gets the one empty answer.
    if (dependencies.length === 0) {
      this.#estimates[index] = estimateMs ?? 0;
      this.#pending[index] = 0;
      this.#ready.push(index);
      return NO_WAITS;
    }
    const waits: number[] = [];
    for (const dependency of dependencies) {
      if (!Number.isInteger(dependency) || dependency < 0 || dependency === index) {
        throw new PlannerError({
          code: 'invalid_nodes',
          message: `Call ${index} depends on ${describeValue(dependency)}, which is not another call`,
        });
      }
      if (this.#ended[dependency] === true) continue;
      waits.push(dependency);
      const dependents = this.#dependents[dependency];
      if (dependents === undefined) this.#dependents[dependency] = [index];
      else dependents.push(index);
    }
    this.#estimates[index] = estimateMs ?? 0;
    this.#pending[index] = waits.length;
    if (waits.length === 0) this.#ready.push(index);
    else this.#waiting += 1;
    return waits.length > 1 ? waits.sort((a, b) => a - b) : waits;
  }

  /** The ready call that comes first, removed from the queue; `undefined` when none is ready. */
  take(): number | undefined {
    const call = this.#ready.pop();
    if (call !== undefined) this.#pending[call] = -1;
    return call;
  }

  /**
   * Call `index` has ended (ran, or was answered without running): the calls waiting for it
   * alone become ready. Ending a call twice, or one never added, is allowed (a dependency that
   * ends before its dependents arrive).
   */
  end(index: number): void {
    if (this.#ended[index] === true) return;
    this.#ended[index] = true;
    const dependents = this.#dependents[index];
    if (dependents === undefined) return;
    this.#dependents[index] = undefined;
    for (const later of dependents) {
      const pending = this.#pending[later]!;
      if (pending <= 0) continue;
      this.#pending[later] = pending - 1;
      if (pending === 1) {
        this.#waiting -= 1;
        this.#ready.push(later);
      }
    }
  }
}
