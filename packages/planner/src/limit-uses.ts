import { describeValue } from './describe-value.js';
import type { LimitWeights } from './named-limits.js';
import { PlannerError } from './planner-error.js';
import type { Plan } from './types.js';

/** The named limits of a batch, for {@link explainPlan}: capacities, and each call's weights. */
export interface ExplainLimits {
  /** Each limit's capacity, `{ name: capacity }` (the Dispatcher's `limits`). */
  readonly capacities: LimitWeights;
  /** Per call (by index), how much of each limit it takes; `undefined` for none. */
  readonly weights: readonly (LimitWeights | undefined)[];
}

/** A named limit a call counts against: "counts against `api` (2 of 4)". */
export interface LimitUse {
  readonly name: string;
  /** How much of the limit the call takes while it runs. */
  readonly weight: number;
  readonly capacity: number;
}

/**
 * A named limit a call may wait for in its wave: the wave's calls together need more of it than
 * its capacity ("may wait for limit `api`: its wave needs 6 of 4").
 */
export interface LimitWait {
  readonly name: string;
  /** The sum of the weights in this limit of the calls of the call's wave. */
  readonly needed: number;
  readonly capacity: number;
}

/** What {@link limitUsesOf} says of one call. */
export interface CallLimitUses {
  readonly limits: readonly LimitUse[];
  readonly limitWaits: readonly LimitWait[];
}

/**
 * Per call, the named limits it counts against and, of those, the ones its wave over-subscribes:
 * the calls of one wave start together, so a call whose wave needs more of a limit than its
 * capacity may wait for it behind others of its wave; in a wave that fits, no call of this batch
 * can make it wait. Names without a capacity count for nothing (as in `NamedLimits`).
 * `undefined` for a call that counts against no limit.
 * @throws {PlannerError} `invalid_options` when `weights` does not have one entry per call.
 */
export function limitUsesOf(
  plan: Plan,
  count: number,
  limits: ExplainLimits,
): (CallLimitUses | undefined)[] {
  const { capacities, weights } = limits;
  if (!Array.isArray(weights) || weights.length !== count) {
    throw new PlannerError({
      code: 'invalid_options',
      message: `Expected \`limits.weights\` to hold one entry per call (${count}), got ${describeValue(weights)}`,
    });
  }
  const uses: (CallLimitUses | undefined)[] = Array.from({ length: count }, () => undefined);
  for (const wave of plan.waves) {
    const needed = new Map<string, number>();
    for (const call of wave.calls) {
      const own = weights[call] ?? {};
      for (const name in own) {
        const weight = own[name]!;
        if (capacities[name] !== undefined) needed.set(name, (needed.get(name) ?? 0) + weight);
      }
    }
    for (const call of wave.calls) {
      const own = weights[call] ?? {};
      const counted: LimitUse[] = [];
      const waits: LimitWait[] = [];
      for (const name in own) {
        const weight = own[name]!;
        const capacity = capacities[name];
        if (capacity === undefined) continue;
        counted.push({ name, weight, capacity });
        const total = needed.get(name)!;
        if (total > capacity) waits.push({ name, needed: total, capacity });
      }
      if (counted.length > 0) uses[call] = { limits: counted, limitWaits: waits };
    }
  }
  return uses;
}

/** The limits in words: "counts against `api` (2 of 4); may wait for limit `api`: …". */
export function describeLimitUses(uses: CallLimitUses): string {
  const against = uses.limits.map((u) => `\`${u.name}\` (${u.weight} of ${u.capacity})`);
  const parts = [`counts against ${against.join(', ')}`];
  for (const wait of uses.limitWaits) {
    parts.push(
      `may wait for limit \`${wait.name}\`: its wave needs ${wait.needed} of ${wait.capacity}`,
    );
  }
  return parts.join('; ');
}
