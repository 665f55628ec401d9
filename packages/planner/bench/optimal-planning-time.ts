// How long exact planning takes: optimalPlanner on generated batches of 8, 12 and 16 calls,
// timed per plan call (the fastest of three runs of each batch), with how many plans were
// proven optimal within the budget, the greedy plan's time on the same batches for scale, and
// how much shorter the optimal plans are than greedy's (summed makespans).
//
// Run:
//   npx -y pnpm@10 --filter @toolwaves/planner exec tsx bench/optimal-planning-time.ts [batches] [seed] [budgetMs] [maxExpansions]
import {
  type Access,
  DEFAULT_BUDGET_MS,
  DEFAULT_MAX_EXPANSIONS,
  greedyPlanner,
  makespan,
  optimalPlanner,
  type Plan,
  type PlanNode,
} from '../src/index.js';

const batches = Number(process.argv[2] ?? 300);
const seed = Number(process.argv[3] ?? 1);
const budgetMs = Number(process.argv[4] ?? DEFAULT_BUDGET_MS);
const maxExpansions = Number(process.argv[5] ?? DEFAULT_MAX_EXPANSIONS);

/** mulberry32: a small seeded generator, so every run plans the same batches. */
function random(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const flatKeys = ['a', 'b', 'c', 'd', 'file:x.rs'];
const treeKeys = ['fs:/a', 'fs:/a/b', 'fs:/a/b/c.txt', 'fs:/ab', 'fs:/b', 'fs:/b/d', 'db:users'];

type Family = 'mixed' | 'keyless';

/**
 * mixed: one call in five not concurrency-safe; the safe ones keyless, with a plain key, or with
 * one to three reads/writes on hierarchical keys; estimates 0–20 ms, one in eight missing.
 * keyless: every call safe and keyless, estimates 1–20 ms — no rule narrows the search, so
 * this is the hard case for proving optimality.
 */
function batch(next: () => number, size: number, family: Family): PlanNode[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return Array.from({ length: size }, (_, index): PlanNode => {
    if (family === 'keyless') {
      return { index, parallelizable: true, estimateMs: 1 + Math.floor(next() * 20) };
    }
    const estimate = next() < 0.125 ? {} : { estimateMs: Math.floor(next() * 21) };
    if (next() < 0.2) return { index, parallelizable: false, ...estimate };
    const roll = next();
    if (roll < 0.3) return { index, parallelizable: true, ...estimate };
    if (roll < 0.6)
      return { index, parallelizable: true, resourceKey: pick(flatKeys), ...estimate };
    const access: Access[] = Array.from({ length: 1 + Math.floor(next() * 3) }, () => ({
      key: pick(treeKeys),
      mode: next() < 0.5 ? 'read' : 'write',
    }));
    return { index, parallelizable: true, access, ...estimate };
  });
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** The fastest of three runs, with its plan. */
function fastestOf(planOnce: () => Plan): { plan: Plan; time: number } {
  let best: { plan: Plan; time: number } | undefined;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    const plan = planOnce();
    const time = performance.now() - started;
    if (best === undefined || time < best.time) best = { plan, time };
  }
  return best!;
}

const optimal = optimalPlanner({ budgetMs, maxExpansions });
const greedy = greedyPlanner();
const caps = [1, 2, 3, 4, 8];

// Warm-up, so that compiling the planner's code is not counted in the first row.
const warmUp = random(seed + 999);
for (let b = 0; b < 200; b++) {
  optimal.plan(batch(warmUp, 8 + (b % 9), b % 2 === 0 ? 'mixed' : 'keyless'), {
    maxConcurrency: 1 + (b % 4),
  });
}

console.log(
  `optimalPlanner (budget ${budgetMs} ms, ${maxExpansions} steps): ${batches} batches per row, seed ${seed}`,
);
console.log(
  'family   calls  proven   median ms    p90 ms    p99 ms    max ms  greedy median ms  gain vs greedy',
);
for (const family of ['mixed', 'keyless'] as const) {
  for (const size of [8, 12, 16]) {
    const next = random(seed * 1000 + size + (family === 'keyless' ? 500 : 0));
    const times: number[] = [];
    const greedyTimes: number[] = [];
    let proven = 0;
    let optimalTotal = 0;
    let greedyTotal = 0;
    for (let b = 0; b < batches; b++) {
      const nodes = batch(next, size, family);
      const maxConcurrency = family === 'keyless' ? 2 + (b % 3) : caps[b % caps.length]!;
      // Each batch is planned three times and the fastest run counts, so that a garbage
      // collection or the scheduler pausing the process is not charged to planning.
      const fast = fastestOf(() => greedy.plan(nodes, { maxConcurrency }));
      const { plan, time } = fastestOf(() => optimal.plan(nodes, { maxConcurrency }));
      greedyTimes.push(fast.time);
      times.push(time);
      if (plan.proven === true) proven++;
      optimalTotal += makespan(nodes, plan, { maxConcurrency });
      greedyTotal += makespan(nodes, fast.plan, { maxConcurrency });
    }
    times.sort((x, y) => x - y);
    greedyTimes.sort((x, y) => x - y);
    const row = [
      family.padEnd(7),
      String(size).padStart(6),
      `${proven}/${batches}`.padStart(8),
      percentile(times, 50).toFixed(3).padStart(11),
      percentile(times, 90).toFixed(3).padStart(9),
      percentile(times, 99).toFixed(3).padStart(9),
      times[times.length - 1]!.toFixed(3).padStart(9),
      percentile(greedyTimes, 50).toFixed(4).padStart(17),
      `${((1 - optimalTotal / greedyTotal) * 100).toFixed(1)}% less makespan`.padStart(21),
    ];
    console.log(row.join(' '));
  }
}
