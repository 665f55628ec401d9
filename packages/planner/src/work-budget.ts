/**
 * How much work a search may still do: a count of steps (deterministic: the same input always
 * stops at the same step, however loaded the machine) and, as an upper limit only, a
 * `performance.now()` deadline. Internal to the package; the optimal planner's heuristics and
 * its exact search each take steps from one.
 *
 * @example
 * const budget = new WorkBudget({ steps: 1000, deadline: performance.now() + 50 });
 * while (budget.take()) improveSomething();
 */
export class WorkBudget {
  /** A budget that never runs out, for callers that want every step. */
  static unlimited(): WorkBudget {
    return new WorkBudget({ steps: Number.POSITIVE_INFINITY, deadline: Number.POSITIVE_INFINITY });
  }

  private readonly steps: number;
  private readonly deadline: number;
  private taken = 0;
  private out = false;

  constructor(options: { steps: number; deadline: number }) {
    this.steps = options.steps;
    this.deadline = options.deadline;
  }

  /**
   * Takes one step: `false`, now and from then on, once every step is taken or the deadline
   * has passed (the clock is read every 32 steps).
   */
  take(): boolean {
    if (this.out) return false;
    if (this.taken >= this.steps) {
      this.out = true;
      return false;
    }
    this.taken++;
    if ((this.taken & 31) === 0 && performance.now() > this.deadline) {
      this.out = true;
      return false;
    }
    return true;
  }

  /** Whether the budget ran out. */
  get exhausted(): boolean {
    return this.out;
  }

  /** Steps taken so far. */
  get spent(): number {
    return this.taken;
  }
}
