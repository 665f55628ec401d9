import { describeValue } from './describe-value.js';
import { PlannerError } from './planner-error.js';

/** How much of each named limit one call takes while it runs: `{ name: weight }`. */
export type LimitWeights = Readonly<Record<string, number>>;

/**
 * Named capacities shared by the calls that count against them (e.g. `{ github: 4, 'mcp:web':
 * 2 }`), and how much of each is in use. Pure bookkeeping: a call takes all of its weights at
 * once or none ({@link NamedLimits.take}), and gives them back when it ends. Who waits and who
 * starts is the caller's business ({@link LimitedReadyQueue}, the Dispatcher, the bench's
 * simulator). One object may be shared by several queues (the batches of one Dispatcher): each
 * hears the others' gives through {@link NamedLimits.onGive}.
 *
 * @example
 * const limits = new NamedLimits({ github: 4 });
 * limits.blockers({ github: 3 }); // []
 * limits.take({ github: 3 });
 * limits.blockers({ github: 2 }); // ['github']: 3 of 4 in use
 * limits.give({ github: 3 });
 * @see LimitedReadyQueue
 */
export class NamedLimits {
  readonly #capacity = new Map<string, number>();
  readonly #used = new Map<string, number>();
  readonly #listeners = new Set<() => void>();

  /**
   * @throws {PlannerError} `invalid_options` naming a limit whose capacity is not an integer
   *   from 1 up.
   */
  constructor(capacities: LimitWeights) {
    for (const [name, capacity] of Object.entries(capacities)) {
      if (!Number.isInteger(capacity) || capacity < 1) {
        throw new PlannerError({
          code: 'invalid_options',
          message: `Expected the capacity of limit \`${name}\` to be an integer from 1 up, got ${describeValue(capacity)}`,
        });
      }
      this.#capacity.set(name, capacity);
      this.#used.set(name, 0);
    }
  }

  /** The names, in the order they were given. */
  names(): string[] {
    return [...this.#capacity.keys()];
  }

  /** The capacity of limit `name`; `undefined` for a name it does not have. */
  capacity(name: string): number | undefined {
    return this.#capacity.get(name);
  }

  /** How much of limit `name` the running calls take (0 for a name it does not have). */
  inUse(name: string): number {
    return this.#used.get(name) ?? 0;
  }

  /**
   * The limits among `weights` without room for their weight now, in the order of `weights`
   * (`[]`: the call fits). A name it does not have never blocks.
   */
  blockers(weights: LimitWeights): string[] {
    const blocked: string[] = [];
    for (const name in weights) {
      const capacity = this.#capacity.get(name);
      if (capacity !== undefined && this.#used.get(name)! + weights[name]! > capacity) {
        blocked.push(name);
      }
    }
    return blocked;
  }

  /**
   * Takes every weight at once.
   * @throws {PlannerError} `invalid_options` when one does not fit (ask {@link blockers} first).
   */
  take(weights: LimitWeights): void {
    const blocked = this.blockers(weights);
    if (blocked.length > 0) {
      throw new PlannerError({
        code: 'invalid_options',
        message: `Cannot take ${describeValue(weights)}: no room in limit \`${blocked[0]}\``,
      });
    }
    for (const name in weights) {
      const used = this.#used.get(name);
      if (used !== undefined) this.#used.set(name, used + weights[name]!);
    }
  }

  /** Gives back what {@link take} took; every listener of {@link onGive} hears it. */
  give(weights: LimitWeights): void {
    for (const name in weights) {
      const used = this.#used.get(name);
      if (used !== undefined) this.#used.set(name, Math.max(0, used - weights[name]!));
    }
    for (const listener of [...this.#listeners]) listener();
  }

  /** Calls `listener` after every give, until the returned function is called. */
  onGive(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
