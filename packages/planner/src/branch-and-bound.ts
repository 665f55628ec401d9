import type { ConflictGraph } from './conflict-graph.js';
import type { WorkBudget } from './work-budget.js';

/** The most safe calls {@link branchAndBound} takes on (its sets are 31-bit masks). */
export const MAX_EXACT_CALLS = 30;

/** Sets remembered at most: beyond, sets are searched again rather than memory growing. */
const MEMO_LIMIT = 1 << 21;

/** A partition of the safe calls into waves, with its summed cost and wave count. */
export interface Partition {
  /** Groups of safe positions ({@link ConflictGraph} numbering), each ascending. */
  readonly blocks: readonly (readonly number[])[];
  readonly cost: number;
  readonly waves: number;
}

/** Options of {@link branchAndBound}. */
export interface BranchAndBoundOptions {
  readonly graph: ConflictGraph;
  /** `maxConcurrency`. */
  readonly slots: number;
  /** The best partition known so far: only better ones are searched for. */
  readonly incumbent: Partition;
  /** Stop searching once it runs out: a step per search node. */
  readonly budget: WorkBudget;
}

/** What {@link branchAndBound} found. */
export interface BranchAndBoundResult extends Partition {
  /** The search finished: no valid partition is better. */
  readonly proven: boolean;
  /** Search steps taken. */
  readonly expansions: number;
}

/** A (cost, waves) score of the calls still to place, exact or a lower bound. */
interface Score {
  readonly cost: number;
  readonly waves: number;
  /** `true`: the best score of these calls; `false`: a lower bound, no better score exists. */
  readonly exact: boolean;
  /** With `exact`: the waves that achieve it, as masks of safe positions, in run order. */
  readonly blocks?: readonly number[];
}

/**
 * Finds the partition of the safe calls into waves with the least summed cost (each wave's
 * calls list-scheduled in model order on `slots` slots, as {@link makespan} times it), then
 * the fewest waves, among those that keep rules 3 and 4 — or proves the incumbent is that.
 *
 * The search peels off waves in run order: the calls still to place form a set R closed under
 * "must run after" (rule 4), the next wave is any non-empty set of calls of R none of whose
 * earlier conflicting calls is still in R (such a set holds no conflict), and the best plan of
 * R is the best over those waves of the wave's cost plus the best plan of the rest. The best
 * plan of a set does not depend on how it was reached, so it is remembered by set — exactly,
 * or as a lower bound when the search of it was cut off — and a set reached again through
 * waves peeled in another order or grouped otherwise is not searched twice. When no call of R
 * must wait for another of R except those that must wait for its earliest call a, some best
 * plan runs a's wave first (the waves can be put in order of their earliest calls), so only
 * waves holding a are tried.
 *
 * Each candidate wave is built call by call in model order, so its list schedule grows
 * incrementally (a wave's schedule only lengthens as calls join its end). A partial wave is
 * cut when it cannot beat the best known: what stays for later costs at least its work spread
 * over the slots, its longest call and its longest chain of conflicting calls; and the calls
 * not decided yet can at best fill the wave's idle slot time, the rest of their work counting
 * over the slots wherever it goes. Bounds round up when all durations are whole numbers. A set
 * is cut at once when its own lower bound cannot beat the best. The incumbent (e.g. greedy's
 * plan improved by local search) is the first bound to beat.
 *
 * @example
 * const result = branchAndBound({ graph, slots: 4, incumbent, budget: WorkBudget.unlimited() });
 * result.proven; // true when no partition is better than result
 * @see orderWaves
 */
export function branchAndBound(options: BranchAndBoundOptions): BranchAndBoundResult {
  const { graph, incumbent, budget } = options;
  const count = graph.safe.length;
  if (count > MAX_EXACT_CALLS) return { ...incumbent, proven: false, expansions: 0 };
  const slots = Math.max(1, Math.min(options.slots, count));
  const durations = graph.durations;
  const predecessorMask = new Int32Array(count);
  const successorMask = new Int32Array(count);
  graph.earlier.forEach((before, position) => {
    for (const other of before) {
      predecessorMask[position]! |= 1 << other;
      successorMask[other]! |= 1 << position;
    }
  });
  const tolerance = 1e-9 * Math.max(1, incumbent.cost);
  const whole = durations.every(Number.isInteger);
  const roundUp = (cost: number): number => (whole ? Math.ceil(cost - tolerance) : cost);
  const better = (cost: number, waves: number, thanCost: number, thanWaves: number): boolean =>
    cost < thanCost - tolerance || (cost <= thanCost + tolerance && waves < thanWaves);

  const memo = new Map<number, Score>();
  const remember = (set: number, score: Score): void => {
    if (memo.size < MEMO_LIMIT || memo.has(set)) memo.set(set, score);
  };
  const chainCost = new Float64Array(count);
  const chainWaves = new Int32Array(count);
  // Per depth of the wave being built: the end time of each slot.
  const slotEnd = new Float64Array(slots * (count + 1));
  let expansions = 0;
  let stopped = false;

  /** Lower bound of a set: work over slots, longest call, longest chain (cost and waves). */
  const boundOf = (set: number): Score => {
    let work = 0;
    let longest = 0;
    let chain = 0;
    let waves = 0;
    for (let position = 0; position < count; position++) {
      if (((set >>> position) & 1) === 0) continue;
      const duration = durations[position]!;
      work += duration;
      if (duration > longest) longest = duration;
      let before = 0;
      let beforeWaves = 0;
      for (const other of graph.earlier[position]!) {
        if (((set >>> other) & 1) === 0) continue;
        if (chainCost[other]! > before) before = chainCost[other]!;
        if (chainWaves[other]! > beforeWaves) beforeWaves = chainWaves[other]!;
      }
      chainCost[position] = before + duration;
      chainWaves[position] = beforeWaves + 1;
      if (before + duration > chain) chain = before + duration;
      if (beforeWaves + 1 > waves) waves = beforeWaves + 1;
    }
    return { cost: roundUp(Math.max(work / slots, longest, chain)), waves, exact: false };
  };

  /**
   * The best plan of `set` if it beats (`cutCost`, `cutWaves`); otherwise a lower bound at
   * least that. Returns `undefined` when the search was stopped.
   */
  const solve = (
    set: number,
    depth: number,
    cutCost: number,
    cutWaves: number,
  ): Score | undefined => {
    if (set === 0) return { cost: 0, waves: 0, exact: true, blocks: [] };
    let known = memo.get(set);
    if (known === undefined) {
      known = boundOf(set);
      remember(set, known);
    }
    if (known.exact || !better(known.cost, known.waves, cutCost, cutWaves)) return known;
    const floor = known;

    // Calls free to run next, and what must stay for later whatever the next wave is.
    let ready = 0;
    for (let position = 0; position < count; position++) {
      if (((set >>> position) & 1) !== 0 && (predecessorMask[position]! & set) === 0) {
        ready |= 1 << position;
      }
    }
    const waiting = set & ~ready;
    let waitingWork = 0;
    let waitingFloor = 0; // the waiting calls' bound: longest call, longest chain
    let waitingWaves = 0;
    if (waiting !== 0) {
      const waitingBound = boundOf(waiting);
      waitingFloor = waitingBound.cost;
      waitingWaves = waitingBound.waves;
      for (let position = 0; position < count; position++) {
        if (((waiting >>> position) & 1) !== 0) waitingWork += durations[position]!;
      }
    }

    // The earliest call's wave may go first unless a waiting call that does not depend on it
    // could join that wave later.
    const first = 31 - Math.clz32(set & -set);
    let descendants = 1 << first;
    for (let position = first; position < count; position++) {
      if (((descendants >>> position) & 1) !== 0) descendants |= successorMask[position]! & set;
    }
    const leadsFirst = (waiting & ~descendants) === 0;

    const items: number[] = [];
    for (let position = 0; position < count; position++) {
      if (((ready >>> position) & 1) !== 0 && !(leadsFirst && position === first)) {
        items.push(position);
      }
    }
    const undecidedWork = new Float64Array(items.length + 1);
    for (let index = items.length - 1; index >= 0; index--) {
      undecidedWork[index] = undecidedWork[index + 1]! + durations[items[index]!]!;
    }

    let bestCost = cutCost;
    let bestWaves = cutWaves;
    let bestBlocks: number[] | undefined;
    const ends = depth * slots;
    slotEnd.fill(0, ends, ends + slots);

    /**
     * Decides items[index..] in or out of the next wave: `wave` holds those in so far (their
     * work is `waveWork`, their list schedule lasts `cost`), `left` those out, with their work
     * and longest call.
     */
    const build = (
      index: number,
      wave: number,
      waveWork: number,
      cost: number,
      left: number,
      leftWork: number,
      leftLongest: number,
    ): void => {
      expansions++;
      if (!budget.take()) {
        stopped = true;
        return;
      }
      // What stays for later costs at least its bound; the wave at least `cost`.
      const laterWork = waitingWork + leftWork;
      const restCost = roundUp(Math.max(laterWork / slots, waitingFloor, leftLongest));
      // Calls still undecided fill the wave's idle slot time first; the rest of their work
      // lengthens the wave or stays for later, spread over the slots either way.
      const idle = slots * cost - waveWork;
      const undecided = undecidedWork[index]!;
      const total = roundUp(
        cost + (undecided > idle ? laterWork + undecided - idle : laterWork) / slots,
      );
      const bound = Math.max(cost + restCost, total);
      const restWaves = waiting !== 0 ? waitingWaves : left === 0 ? 0 : 1;
      if (!better(bound, 1 + restWaves, bestCost, bestWaves)) return;
      if (index === items.length) {
        if (wave === 0) return;
        const rest = solve(set & ~wave, depth + 1, bestCost - cost, bestWaves - 1);
        if (rest === undefined) return;
        if (rest.exact && better(cost + rest.cost, 1 + rest.waves, bestCost, bestWaves)) {
          bestCost = cost + rest.cost;
          bestWaves = 1 + rest.waves;
          bestBlocks = [wave, ...rest.blocks!];
        }
        return;
      }
      const position = items[index]!;
      const duration = durations[position]!;
      // In: onto the slot that frees first, as list scheduling does.
      let slot = ends;
      for (let s = ends + 1; s < ends + slots; s++) if (slotEnd[s]! < slotEnd[slot]!) slot = s;
      const previous = slotEnd[slot]!;
      slotEnd[slot] = previous + duration;
      const longer = Math.max(cost, previous + duration);
      const joined = wave | (1 << position);
      build(index + 1, joined, waveWork + duration, longer, left, leftWork, leftLongest);
      slotEnd[slot] = previous;
      if (stopped || !better(floor.cost, floor.waves, bestCost, bestWaves)) return;
      // Out: it stays for later.
      const out = left | (1 << position);
      const longest = Math.max(leftLongest, duration);
      build(index + 1, wave, waveWork, cost, out, leftWork + duration, longest);
    };

    if (leadsFirst) {
      slotEnd[ends] = durations[first]!;
      build(0, 1 << first, durations[first]!, durations[first]!, 0, 0, 0);
    } else {
      build(0, 0, 0, 0, 0, 0, 0);
    }
    if (stopped) return undefined;
    const result: Score =
      bestBlocks === undefined
        ? { cost: cutCost, waves: cutWaves, exact: false }
        : { cost: bestCost, waves: bestWaves, exact: true, blocks: bestBlocks };
    remember(set, result);
    return result;
  };

  const all = (1 << count) - 1;
  const found = solve(all, 0, incumbent.cost, incumbent.waves);
  const proven = !stopped;
  if (found === undefined || !found.exact) return { ...incumbent, proven, expansions };
  const blocks = found.blocks!.map((mask) => {
    const block: number[] = [];
    for (let position = 0; position < count; position++) {
      if (((mask >>> position) & 1) !== 0) block.push(position);
    }
    return block;
  });
  return { blocks, cost: found.cost, waves: found.waves, proven, expansions };
}
