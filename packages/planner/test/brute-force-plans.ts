import type { PlanNode } from '@toolwaves/planner';
import { referenceEdges } from './edge-arbitraries.js';
import { keyConflict } from './reference-model.js';

// Brute force for the planners' tests: every plan that keeps the rules (an ordered partition of
// the calls into waves), the least (makespan, waves). Written plainly, from the rules, with no
// code of the package: list scheduling, conflicts and edges are the test's own.

/**
 * How long one wave takes on `cap` slots, list scheduling written plainly: the calls start in
 * the order given, each on the slot that frees first. A missing estimate counts 1 ms
 * (`DEFAULT_ESTIMATE_MS`).
 */
export function referenceWave(durations: readonly number[], cap: number): number {
  const slots = new Array<number>(Math.min(cap, Math.max(1, durations.length))).fill(0);
  for (const duration of durations) {
    let first = 0;
    for (let s = 1; s < slots.length; s++) if (slots[s]! < slots[first]!) first = s;
    slots[first]! += duration;
  }
  return Math.max(0, ...slots);
}

/** Options of {@link bruteForce}. */
export interface BruteForceOptions {
  /** Slots per wave; makespans are not counted when absent (every plan then costs 0 ms). */
  readonly maxConcurrency?: number;
  /** Also keep rule 5: nothing crosses a call that is not concurrency-safe. */
  readonly ordered?: boolean;
}

/**
 * The least (makespan, waves) over every plan that keeps rules 1–4 and the ordering edges (and
 * rule 5 when `ordered`); without `maxConcurrency`, `waves` is the fewest waves of any valid plan.
 *
 * A plan is a sequence of waves; it keeps the rules exactly when every wave is non-empty, holds a
 * call that is not concurrency-safe only alone (rule 2), and each call's wave comes after the
 * wave of every earlier call it must follow: one it conflicts with (rule 4; which also keeps
 * such a pair out of one wave, rule 3), one an edge makes it follow, and, when ordered, every
 * earlier call if either of the two is not concurrency-safe (rule 5). Every plan is built here
 * wave by wave: the next wave is any non-empty set of unplaced calls whose calls it must follow
 * are all placed already. The best rest of a plan depends only on which calls are placed, so it
 * is computed once per set of placed calls: 2^n sets and at most 3^n wave choices in all (6,561
 * for 8 calls, which have 545,835 ordered partitions).
 */
export function bruteForce(nodes: readonly PlanNode[], options: BruteForceOptions = {}) {
  const { maxConcurrency, ordered = false } = options;
  const count = nodes.length;
  const bit = (call: number) => 1 << call;
  const edges = referenceEdges(nodes);
  // follows[b]: the earlier calls that must run in an earlier wave than call b, as a bit set.
  const follows = nodes.map((later, b) => {
    let set = 0;
    for (let a = 0; a < b; a++) {
      const earlier = nodes[a]!;
      const barrier = !earlier.parallelizable || !later.parallelizable;
      const edge = edges.some(([from, to]) => from === a && to === b);
      if (keyConflict(earlier, later) || edge || (ordered && barrier)) set |= bit(a);
    }
    return set;
  });
  // Per set of calls, computed once, when first tried as a wave: whether it may be one by
  // rule 2, and how long it takes.
  const sets: { keepsRule2: boolean; time: number }[] = [];
  const asWave = (set: number) => {
    const known = sets[set];
    if (known !== undefined) return known;
    const calls: number[] = [];
    for (let call = 0; call < count; call++) if (set & bit(call)) calls.push(call);
    const durations = calls.map((call) => nodes[call]!.estimateMs ?? 1);
    const wave = {
      keepsRule2: calls.length <= 1 || calls.every((call) => nodes[call]!.parallelizable),
      time: maxConcurrency === undefined ? 0 : referenceWave(durations, maxConcurrency),
    };
    sets[set] = wave;
    return wave;
  };
  const everyCall = bit(count) - 1;
  const best: { makespan: number; waves: number }[] = [];
  const rest = (placed: number): { makespan: number; waves: number } => {
    if (placed === everyCall) return { makespan: 0, waves: 0 };
    const known = best[placed];
    if (known !== undefined) return known;
    let ready = 0;
    for (let call = 0; call < count; call++) {
      if (!(placed & bit(call)) && (follows[call]! & placed) === follows[call]) ready |= bit(call);
    }
    let least = { makespan: Number.POSITIVE_INFINITY, waves: Number.POSITIVE_INFINITY };
    // Every non-empty subset of `ready`, each once (counting down through its subsets).
    for (let wave = ready; wave > 0; wave = (wave - 1) & ready) {
      const { keepsRule2, time } = asWave(wave);
      if (!keepsRule2) continue;
      const after = rest(placed | wave);
      const plan = { makespan: time + after.makespan, waves: after.waves + 1 };
      const better =
        plan.makespan < least.makespan ||
        (plan.makespan === least.makespan && plan.waves < least.waves);
      if (better) least = plan;
    }
    best[placed] = least;
    return least;
  };
  return rest(0);
}
