/**
 * How greedy planning scales. Prints, measured side by side in one run:
 * - planning 100 000 calls ÷ merely reading each call's declarations once (target: within 10×);
 * - planning 100 000 calls ÷ planning 10 000 calls (linear: about 10).
 * Two workloads: the seed model (plain keys) and access lists with hierarchical keys.
 *
 * Run: `npx -y pnpm@10 --filter @toolwaves/planner bench`
 */
import { performance } from 'node:perf_hooks';
import { type Access, greedyPlanner, orderedPlanner, type PlanNode } from '@toolwaves/planner';

/** A small deterministic generator (mulberry32), so every run plans the same batches. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 10% unsafe, 30% keyless, 60% on one of 1 000 plain keys. */
function seedBatch(count: number): PlanNode[] {
  const next = random(1);
  return Array.from({ length: count }, (_, index): PlanNode => {
    const roll = next();
    if (roll < 0.1) return { index, parallelizable: false };
    if (roll < 0.4) return { index, parallelizable: true };
    return {
      index,
      parallelizable: true,
      resourceKey: `file:src/f${Math.floor(next() * 1000)}.rs`,
    };
  });
}

/** 10% unsafe; the rest read or write 1–3 paths in a tree of 50 directories × 40 files. */
function accessBatch(count: number): PlanNode[] {
  const next = random(2);
  return Array.from({ length: count }, (_, index): PlanNode => {
    if (next() < 0.1) return { index, parallelizable: false };
    const access: Access[] = [];
    const accesses = 1 + Math.floor(next() * 3);
    for (let a = 0; a < accesses; a++) {
      const dir = `fs:/repo/d${Math.floor(next() * 50)}`;
      const key = next() < 0.1 ? dir : `${dir}/f${Math.floor(next() * 40)}.ts`;
      access.push({ key, mode: next() < 0.3 ? 'write' : 'read' });
    }
    return { index, parallelizable: true, access };
  });
}

/** The floor: read every declaration once and do nothing with it. */
function readDeclarations(nodes: readonly PlanNode[]): number {
  let sum = 0;
  for (const node of nodes) {
    sum += node.index;
    if (node.parallelizable) sum++;
    if (node.resourceKey !== undefined) sum += node.resourceKey.length;
    if (node.access !== undefined) {
      for (const entry of node.access) sum += entry.key.length + (entry.mode === 'write' ? 1 : 0);
    }
    if (node.estimateMs !== undefined) sum += node.estimateMs;
  }
  return sum;
}

let sink = 0;
const ROUNDS = 31;

/**
 * Median time of each contender, in ms. The contenders take turns within every round, so a
 * slow patch of the machine hits them all alike.
 */
function medians<K extends string>(contenders: Record<K, () => number>): Record<K, number> {
  const names = Object.keys(contenders) as K[];
  const times = new Map<K, number[]>(names.map((name) => [name, []]));
  for (let round = -5; round < ROUNDS; round++) {
    for (const name of names) {
      const start = performance.now();
      sink += contenders[name]();
      const elapsed = performance.now() - start;
      if (round >= 0) times.get(name)!.push(elapsed);
    }
  }
  const result = {} as Record<K, number>;
  for (const name of names) {
    const sorted = times.get(name)!.sort((a, b) => a - b);
    result[name] = sorted[Math.floor(sorted.length / 2)]!;
  }
  return result;
}

const greedy = greedyPlanner();
const ordered = orderedPlanner();

function report(name: string, batch: (count: number) => PlanNode[]): void {
  const small = batch(10_000);
  const large = batch(100_000);
  const time = medians({
    read: () => readDeclarations(large),
    greedySmall: () => greedy.plan(small).waves.length,
    greedyLarge: () => greedy.plan(large).waves.length,
    orderedLarge: () => ordered.plan(large).waves.length,
  });
  const waves = greedy.plan(large).waves.length;
  const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
  console.log(`\n${name} (100 000 calls → ${waves} greedy waves)`);
  console.log(`  read declarations once   ${fmt(time.read)}`);
  console.log(`  greedy, 10 000 calls     ${fmt(time.greedySmall)}`);
  console.log(`  greedy, 100 000 calls    ${fmt(time.greedyLarge)}`);
  console.log(`  ordered, 100 000 calls   ${fmt(time.orderedLarge)}`);
  console.log(
    `  greedy 100k ÷ reading 100k   ${(time.greedyLarge / time.read).toFixed(1)}×  (target ≤ 10×)`,
  );
  console.log(
    `  greedy 100k ÷ greedy 10k     ${(time.greedyLarge / time.greedySmall).toFixed(1)}×  (linear: 10×)`,
  );
}

console.log(
  `@toolwaves/planner scaling — node ${process.version}, median of ${ROUNDS} interleaved runs`,
);
report('seed model: plain keys', seedBatch);
report('access lists: hierarchical keys, reads and writes', accessBatch);
if (sink === 42) console.log('');
