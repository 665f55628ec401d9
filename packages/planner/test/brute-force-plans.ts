import { conflicts, makespan, type Plan, type PlanNode, verifyPlan } from '@toolwaves/planner';
import { referenceEdges } from './edge-arbitraries.js';

// Brute force for the optimal planner's tests: every ordered partition of the calls into
// waves, those verifyPlan accepts, the least (makespan, wave count).

/** Every partition of 0..count-1 into groups (restricted growth strings), each once. */
export function* setPartitions(count: number): Generator<number[][]> {
  const groups: number[][] = [];
  function* place(call: number): Generator<number[][]> {
    if (call === count) {
      yield groups.map((group) => [...group]);
      return;
    }
    for (const group of groups) {
      group.push(call);
      yield* place(call + 1);
      group.pop();
    }
    groups.push([call]);
    yield* place(call + 1);
    groups.pop();
  }
  yield* place(0);
}

/** Every order of 0..count-1. */
export function* permutations(count: number): Generator<number[]> {
  const order: number[] = [];
  const used = new Array<boolean>(count).fill(false);
  function* extend(): Generator<number[]> {
    if (order.length === count) {
      yield [...order];
      return;
    }
    for (let item = 0; item < count; item++) {
      if (used[item]) continue;
      used[item] = true;
      order.push(item);
      yield* extend();
      order.pop();
      used[item] = false;
    }
  }
  yield* extend();
}

/**
 * The least (makespan, waves) over every ordered partition verifyPlan accepts. An ordered
 * partition is a partition into groups plus an order of the groups; every order of the same
 * groups has the same makespan and wave count (waves run one after another), so a partition
 * counts if any order of it is valid. Shortcuts, only for speed: a partition that would not
 * beat the best so far is not checked; a group holding two calls that conflict breaks rule 2
 * or 3 in every order; two groups that each hold the earlier of a conflicting pair of safe
 * calls with the other would both have to run first (rule 4).
 */
export function bruteForce(nodes: readonly PlanNode[], maxConcurrency: number) {
  let best = { makespan: Number.POSITIVE_INFINITY, waves: Number.POSITIVE_INFINITY };
  const clashes = nodes.map((a) => nodes.map((b) => conflicts(a, b)));
  const safe = (call: number) => nodes[call]!.parallelizable;
  const first = (g: readonly number[], h: readonly number[]) =>
    g.some((a) => h.some((b) => a < b && safe(a) && safe(b) && clashes[a]![b]!));
  const planOf = (groups: readonly number[][], order: readonly number[]): Plan => ({
    planner: 'brute-force',
    waves: order.map((group) => ({ calls: groups[group]!, open: false })),
  });
  for (const groups of setPartitions(nodes.length)) {
    const time = makespan(
      nodes,
      planOf(
        groups,
        groups.map((_, g) => g),
      ),
      { maxConcurrency },
    );
    const waves = groups.length;
    if (time > best.makespan || (time === best.makespan && waves >= best.waves)) continue;
    const clash = groups.some((group) =>
      group.some((a, i) => group.some((b, j) => j > i && clashes[a]![b]!)),
    );
    if (clash) continue;
    const deadlock = groups.some((g, i) =>
      groups.some((h, j) => j > i && first(g, h) && first(h, g)),
    );
    if (deadlock) continue;
    for (const order of permutations(groups.length)) {
      const plan = planOf(groups, order);
      if (verifyPlan(nodes, plan).length === 0 && keepsEdges(nodes, plan)) {
        best = { makespan: time, waves };
        break;
      }
    }
  }
  return best;
}

/** Plainly: every call runs in a later wave than each call an ordering edge makes it follow. */
function keepsEdges(nodes: readonly PlanNode[], plan: Plan): boolean {
  const waveOf: number[] = [];
  plan.waves.forEach((wave, w) => {
    for (const call of wave.calls) waveOf[call] = w;
  });
  return referenceEdges(nodes).every(([earlier, later]) => waveOf[earlier]! < waveOf[later]!);
}
