/**
 * Per-call overhead of fleet locks (`redisCoordinator`) against no coordinator, on no-op calls
 * and on 5 ms calls, with 1, 4 and 16 processes sharing one Redis, measured side by side in one
 * run. Every process runs the same calls in both arms, all processes at once, arms alternating
 * over several rounds (medians reported); each call locks a key of its own process, so nobody
 * waits for anybody and what is left is the coordinator's cost: the round trips to Redis per
 * call (acquire + release) and the Lua scan of the namespace's queue. A third arm, a coordinator
 * that only sends two PINGs per call, is the floor any Redis-based coordinator pays: `vs PINGs`
 * is the cost of the locking itself.
 *
 * Needs `redis-server` on PATH (apt-get install redis-server); starts its own on a free port.
 * Run: `npx -y pnpm@10 --filter @toolwaves/redis bench` (`--quick` for fewer rounds).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  hasRedisServer,
  redisMissing,
  startRedisServer,
} from '../../../test-support/redis-server.js';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 3 : 5;
const PROCESSES = [1, 4, 16];
const WORKLOADS = [
  { tool: 'noop', label: 'no-op calls', calls: quick ? 100 : 300 },
  { tool: 'wait5', label: '5 ms calls', calls: quick ? 20 : 50 },
];

const require = createRequire(import.meta.url);
/** tsx as a loader in each worker's own node process. */
const TSX_LOADER = pathToFileURL(require.resolve('tsx')).href;
const WORKER = fileURLToPath(new URL('./bench-worker.ts', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('../tsconfig.cli.json', import.meta.url));

type Arm = 'none' | 'ping' | 'redis';
const ARMS: readonly Arm[] = ['none', 'ping', 'redis'];

interface Worker {
  readonly child: ChildProcess;
  readonly lines: AsyncIterator<string>;
}

function startWorker(url: string, namespace: string, index: number): Worker {
  const child = spawn(
    process.execPath,
    ['--import', TSX_LOADER, WORKER, url, namespace, String(index)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, TSX_TSCONFIG_PATH: TSCONFIG },
    },
  );
  const reader: Interface = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  return { child, lines: reader[Symbol.asyncIterator]() };
}

/** Runs one arm in every worker at once; the mean per-call ms over processes, and trips per call. */
async function runArm(
  workers: readonly Worker[],
  arm: Arm,
  tool: string,
  calls: number,
): Promise<{ perCallMs: number; tripsPerCall: number }> {
  for (const worker of workers) worker.child.stdin?.write(`${arm} ${tool} ${calls}\n`);
  const answers = await Promise.all(
    workers.map(async (worker) => {
      const next = await worker.lines.next();
      const [word, ms, trips] = String(next.value).split(' ');
      if (word !== 'done') throw new Error(`worker answered ${String(next.value)}`);
      return { ms: Number(ms), trips: Number(trips) };
    }),
  );
  const perCallMs = answers.reduce((sum, a) => sum + a.ms, 0) / answers.length / calls;
  const tripsPerCall = answers.reduce((sum, a) => sum + a.trips, 0) / answers.length / calls;
  return { perCallMs, tripsPerCall };
}

function micros(ms: number): string {
  return `${(ms * 1000).toFixed(0)} µs`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  if (!hasRedisServer()) {
    console.log(redisMissing('redis: the Redis benchmarks'));
    return;
  }
  const server = await startRedisServer();
  const rows: string[][] = [];
  try {
    for (const processes of PROCESSES) {
      const namespace = `bench-${processes}`;
      const workers = Array.from({ length: processes }, (_, i) =>
        startWorker(server.url, namespace, i),
      );
      try {
        for (const { tool, label, calls } of WORKLOADS) {
          // warm-up: connections, script cache, JIT
          for (const arm of ARMS) await runArm(workers, arm, tool, Math.ceil(calls / 4));
          const perCall: Record<Arm, number[]> = { none: [], ping: [], redis: [] };
          const trips: number[] = [];
          for (let round = 0; round < ROUNDS; round += 1) {
            // rotate the order, so no arm always runs first
            const order = ARMS.map((_, i) => ARMS[(i + round) % ARMS.length] as Arm);
            for (const arm of order) {
              const result = await runArm(workers, arm, tool, calls);
              perCall[arm].push(result.perCallMs);
              if (arm === 'redis') trips.push(result.tripsPerCall);
            }
          }
          const base = median(perCall.none);
          const floor = median(perCall.ping);
          const fleet = median(perCall.redis);
          rows.push([
            String(processes),
            label,
            micros(base),
            micros(floor),
            micros(fleet),
            `${fleet >= base ? '+' : '-'}${micros(Math.abs(fleet - base))}`,
            `${(fleet / base).toFixed(2)}x`,
            `${(fleet / floor).toFixed(2)}x`,
            median(trips).toFixed(2),
          ]);
        }
      } finally {
        for (const worker of workers) worker.child.stdin?.end('exit\n');
        await Promise.all(
          workers.map((w) => new Promise((resolve) => w.child.once('exit', resolve))),
        );
      }
    }
  } finally {
    await server.stop();
  }
  const header = [
    'processes',
    'calls',
    'no coordinator',
    '2 bare PINGs',
    'redis locks',
    'added',
    'vs none',
    'vs PINGs',
    'round trips/call',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const format = (row: readonly string[]) =>
    row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ');
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    `fleet lock overhead per call (medians of ${ROUNDS} rounds, single-call dispatches; ${cpus().length} cores, load average ${load})`,
  );
  console.log(format(header));
  for (const row of rows) console.log(format(row));
}

await main();
