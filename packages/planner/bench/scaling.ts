/**
 * How greedy planning scales. Prints, measured side by side in one run (interleaved rounds,
 * median and fastest of 31):
 * - planning 100 000 calls ÷ merely reading each call's declarations once (goal: ≤ 3×);
 * - planning 100 000 calls ÷ planning 10 000 calls (linear: about 10×; goal ≤ 12). The 10k figure is a
 *   tenth of planning ten different 10k batches in a row, so that both sizes read their calls
 *   from memory rather than one small batch from cache.
 * Wall-clock time, and below each ratio the same ratio in process CPU time (steadier on a busy
 * machine: time spent waiting for a core does not count; garbage collection on helper threads does).
 * Every timed run starts with an empty young generation: a minor garbage collection, untimed,
 * before each one (see `measure`).
 * Four workloads: the seed model (plain keys) with 1 000 and 5 000 keys at 100k calls, access
 * lists with hierarchical keys, and every call on one key (n waves: where a first-fit that scans
 * the waves would be quadratic).
 * Key pools grow with the batch, so a batch ten times larger has the same shape.
 *
 * Run: `npx -y pnpm@10 --filter @toolwaves/planner bench` (node's `--expose-gc` is on there).
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

/**
 * 10% unsafe, 30% keyless, 60% on a plain key; one key per `callsPerKey` calls (by default
 * 100: 1 000 keys for 100 000 calls), so a batch ten times larger has the same shape, ten times
 * over.
 */
function seedBatch(count: number, seed: number, callsPerKey = 100): PlanNode[] {
  const next = random(seed);
  const keys = count / callsPerKey;
  return Array.from({ length: count }, (_, index): PlanNode => {
    const roll = next();
    if (roll < 0.1) return { index, parallelizable: false };
    if (roll < 0.4) return { index, parallelizable: true };
    return {
      index,
      parallelizable: true,
      resourceKey: `file:src/f${Math.floor(next() * keys)}.rs`,
    };
  });
}

/**
 * 10% unsafe; the rest read (70%) or write 1–3 paths (a file, or 10% of the time a whole
 * directory) in a tree of directories × 40 files, one directory per 2 000 calls.
 */
function accessBatch(count: number, seed: number): PlanNode[] {
  const next = random(seed);
  const dirs = count / 2000;
  return Array.from({ length: count }, (_, index): PlanNode => {
    if (next() < 0.1) return { index, parallelizable: false };
    const access: Access[] = [];
    const accesses = 1 + Math.floor(next() * 3);
    for (let a = 0; a < accesses; a++) {
      const dir = `fs:/repo/d${Math.floor(next() * dirs)}`;
      const key = next() < 0.1 ? dir : `${dir}/f${Math.floor(next() * 40)}.ts`;
      access.push({ key, mode: next() < 0.3 ? 'write' : 'read' });
    }
    return { index, parallelizable: true, access };
  });
}

/** Every call safe and on the same key: n calls, n waves. */
function oneKeyBatch(count: number): PlanNode[] {
  return Array.from(
    { length: count },
    (_, index): PlanNode => ({ index, parallelizable: true, resourceKey: 'file:src/main.rs' }),
  );
}

/**
 * The floor: read every declaration once and do nothing with it. Indexed loops, as the planner's:
 * with `for…of`, about one process in three ended up running this in its on-stack-replacement
 * code (its fully optimized code deoptimized at the iterator, for want of type feedback, and was
 * never made again), at twice the time (3.5–4 ms against 1.9 ms for the 100k plain-key batch),
 * which made the planner's ratio look twice as good as it is.
 */
function readDeclarations(nodes: readonly PlanNode[]): number {
  let sum = 0;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    sum += node.index;
    if (node.parallelizable) sum++;
    if (node.resourceKey !== undefined) sum += node.resourceKey.length;
    const access = node.access;
    if (access !== undefined) {
      for (let a = 0; a < access.length; a++) {
        const entry = access[a]!;
        sum += entry.key.length + (entry.mode === 'write' ? 1 : 0);
      }
    }
    if (node.estimateMs !== undefined) sum += node.estimateMs;
  }
  return sum;
}

/** A reference for the memory system alone: push `count` numbers into a fresh array. */
function pushNumbers(count: number): number {
  const list: number[] = [];
  for (let i = 0; i < count; i++) list.push(i);
  return list.length;
}

/** How many fresh buffers {@link pageFaultCost} touches. */
const FAULT_SAMPLES = 9;

/**
 * What one minor page fault costs on this machine, in µs: the median over fresh 8 MB buffers of
 * the time to write one byte per 4 KB page, divided by the faults that took. A planner's run
 * that takes fresh memory (its output, a table that outgrows the young generation) pays this per
 * 4 KB page; reading the declarations takes none, so the cost of a fault, which is the machine's
 * (the kernel's, the hypervisor's), moves the ratios to reading.
 */
function pageFaultCost(): number {
  const costs: number[] = [];
  for (let sample = 0; sample < FAULT_SAMPLES; sample++) {
    const before = pageFaults();
    const start = performance.now();
    const bytes = new Uint8Array(8 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = 1;
    const elapsed = performance.now() - start;
    const faulted = pageFaults() - before;
    sink += bytes[4096]!;
    if (faulted > 0) costs.push((elapsed * 1000) / faulted);
  }
  costs.sort((a, b) => a - b);
  return costs[Math.floor(costs.length / 2)] ?? Number.NaN;
}

let sink = 0;
const ROUNDS = 31;

/** Node's `gc()`, exposed by `--expose-gc`. */
type Gc = (options?: { type?: 'minor' | 'major' }) => void;
function exposedGc(): Gc {
  const gc = (globalThis as { gc?: Gc }).gc;
  if (gc === undefined) throw new Error('Run with node --expose-gc (`pnpm bench` does)');
  return gc;
}
const collectGarbage = exposedGc();

/**
 * Median and fastest time of a contender, in ms: wall-clock, and process CPU time; and the median
 * number of minor page faults a run took (fresh memory the kernel maps on first touch).
 */
interface Timing {
  readonly median: number;
  readonly fastest: number;
  readonly cpu: { readonly median: number; readonly fastest: number };
  readonly pageFaults: number;
}

/** Minor page faults of this process so far. */
const pageFaults = (): number => process.resourceUsage().minorPageFault;

/**
 * Times every contender `ROUNDS` times after 5 warm-up rounds. The contenders take turns within
 * every round, so a slow patch of the (shared) machine hits them all alike.
 *
 * A minor GC (the young generation only), untimed, comes before every timed run, so that each
 * contender starts with an empty young generation and pays only for the collections its own
 * allocations cause. Without it, young-generation collections fall where the heap happens to fill
 * up, which with a fixed turn order is the same contender round after round: in one run of the
 * seed model, 14 of 16 collections fell inside the 100k greedy run (copying what it had built so
 * far, and collecting the garbage of the ordered and 10k runs), none inside the 10k runs or the
 * reading. Not a full GC: that also drops what the optimized code depends on (maps no live
 * object uses), so every contender would start cold — a state a planner in use is rarely in.
 */
function measure<K extends string>(contenders: Record<K, () => number>): Record<K, Timing> {
  const names = Object.keys(contenders) as K[];
  const times = new Map<K, number[]>(names.map((name) => [name, []]));
  const cpuTimes = new Map<K, number[]>(names.map((name) => [name, []]));
  const faults = new Map<K, number[]>(names.map((name) => [name, []]));
  for (let round = -5; round < ROUNDS; round++) {
    for (const name of names) {
      collectGarbage({ type: 'minor' });
      // read before the clocks start and after they stop: the count costs a system call
      const faultsBefore = pageFaults();
      const cpu = process.cpuUsage();
      const start = performance.now();
      sink += contenders[name]();
      const elapsed = performance.now() - start;
      const used = process.cpuUsage(cpu);
      const faulted = pageFaults() - faultsBefore;
      if (round >= 0) {
        times.get(name)!.push(elapsed);
        cpuTimes.get(name)!.push((used.user + used.system) / 1000);
        faults.get(name)!.push(faulted);
      }
    }
  }
  const summary = (values: number[]) => {
    const sorted = values.sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)]!, fastest: sorted[0]! };
  };
  const result = {} as Record<K, Timing>;
  for (const name of names) {
    result[name] = {
      ...summary(times.get(name)!),
      cpu: summary(cpuTimes.get(name)!),
      pageFaults: summary(faults.get(name)!).median,
    };
  }
  return result;
}

const greedy = greedyPlanner();
const ordered = orderedPlanner();

function report(
  name: string,
  batch: (count: number, seed: number) => PlanNode[],
  readNote = 'goal ≤ 3×',
): void {
  const large = batch(100_000, 1);
  // Ten different 10k batches, 100 000 calls in all: planned one after another, each is read
  // from memory as the 100k batch is, not from a cache that one small batch replanned fits in.
  const smalls = Array.from({ length: 10 }, (_, k) => batch(10_000, 100 + k));
  const largeWaves = greedy.plan(large).waves.length;
  const time = measure({
    read: () => readDeclarations(large),
    greedyLarge: () => greedy.plan(large).waves.length,
    orderedLarge: () => ordered.plan(large).waves.length,
    greedyTenSmall: () => smalls.reduce((sum, small) => sum + greedy.plan(small).waves.length, 0),
  });
  const perSmall = (t: Timing): Timing => ({
    median: t.median / 10,
    fastest: t.fastest / 10,
    cpu: { median: t.cpu.median / 10, fastest: t.cpu.fastest / 10 },
    pageFaults: t.pageFaults / 10,
  });
  const small = perSmall(time.greedyTenSmall);
  const row = (label: string, t: Timing) =>
    console.log(
      `  ${label.padEnd(46)}${t.median.toFixed(2).padStart(8)} ms${t.fastest.toFixed(2).padStart(9)} ms`,
    );
  const ratio = (label: string, a: Timing, b: Timing, note: string) => {
    console.log(
      `  ${label.padEnd(46)}${(a.median / b.median).toFixed(1).padStart(8)} × ${(a.fastest / b.fastest).toFixed(1).padStart(8)} ×   ${note}`,
    );
    console.log(
      `  ${'  (process CPU time)'.padEnd(46)}${(a.cpu.median / b.cpu.median).toFixed(1).padStart(8)} × ${(a.cpu.fastest / b.cpu.fastest).toFixed(1).padStart(8)} ×`,
    );
  };
  console.log(`\n${name}: 100 000 calls → ${largeWaves} greedy waves`);
  console.log(`  ${''.padEnd(46)}${'median'.padStart(11)}${'fastest'.padStart(12)}`);
  row('read every declaration once, 100k calls', time.read);
  row('greedy, 100k calls', time.greedyLarge);
  row('ordered, 100k calls', time.orderedLarge);
  row('greedy, 10k calls (ten batches, per batch)', small);
  ratio('greedy 100k ÷ reading 100k', time.greedyLarge, time.read, readNote);
  ratio('greedy 100k ÷ greedy 10k', time.greedyLarge, small, 'linear: 10×, goal ≤ 12');
  console.log(
    `  page faults per run, medians: reading ${time.read.pageFaults}, greedy 100k ${time.greedyLarge.pageFaults}, ordered 100k ${time.orderedLarge.pageFaults}, greedy 10k ${small.pageFaults}`,
  );
}

console.log(`@toolwaves/planner scaling — node ${process.version}, ${ROUNDS} interleaved rounds`);
report('seed model, plain keys (1 000-key pool at 100k)', (count, seed) => seedBatch(count, seed));
report('seed model, plain keys (5 000-key pool at 100k)', (count, seed) =>
  seedBatch(count, seed, 20),
);
report('access lists, hierarchical keys, reads and writes', accessBatch);
report(
  'every call on one key (a first-fit that scans the waves is quadratic here)',
  oneKeyBatch,
  'output-bound: one wave per call',
);
if (sink === 42) console.log('');

const push = measure({
  large: () => pushNumbers(100_000),
  tenSmall: () => {
    let total = 0;
    for (let k = 0; k < 10; k++) total += pushNumbers(10_000);
    return total;
  },
});
console.log('\nreference, no planning: push numbers into a fresh array');
console.log(
  `  100k ÷ 10k${(push.large.median / (push.tenSmall.median / 10)).toFixed(1).padStart(44)} × ${(push.large.fastest / (push.tenSmall.fastest / 10)).toFixed(1).padStart(8)} ×   what the memory system adds`,
);
const fault = pageFaultCost();
console.log(
  `  a page fault: ${fault.toFixed(1)} µs (first touch of fresh memory, median of ${FAULT_SAMPLES}), what each fault above adds`,
);
