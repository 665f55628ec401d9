// How long exact planning takes: optimalPlanner on generated batches of 8, 12 and 16 calls,
// timed per plan call, with how many plans were proven optimal within the budget and the
// greedy plan's time on the same batches for scale.
//
// Run from the repository root:
//   ./node_modules/.bin/tsx packages/planner/bench/optimal-planning-time.ts [batches] [seed]
import {
  type Access,
  greedyPlanner,
  makespan,
  optimalPlanner,
  type PlanNode,
} from '../src/index.js';

const batches = Number(process.argv[2] ?? 300);
const seed = Number(process.argv[3] ?? 1);

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

const optimal = optimalPlanner();
const greedy = greedyPlanner();
const caps = [1, 2, 3, 4, 8];

console.log(`optimalPlanner (budget 50 ms): ${batches} batches per row, seed ${seed}`);
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
      let started = performance.now();
      const fast = greedy.plan(nodes, { maxConcurrency });
      greedyTimes.push(performance.now() - started);
      started = performance.now();
      const plan = optimal.plan(nodes, { maxConcurrency });
      times.push(performance.now() - started);
      if (plan.proven === true) proven++;
      optimalTotal += makespan(nodes, plan, { maxConcurrency });
      greedyTotal += makespan(nodes, fast, { maxConcurrency });
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
