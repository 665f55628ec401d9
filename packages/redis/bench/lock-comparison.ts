/**
 * The lock side by side with what a user would pick instead, in one run against its own
 * `redis-server`: uncontended acquire+release cycles per second of `redisCoordinator` and of
 * redis-semaphore's `Mutex` (ioredis, default options, its 10 ms polling included), with 1, 16,
 * 64 and 256 workers each on a key of its own, every worker of a side sharing one process and
 * one connection (as the calls of one agent process do). The sides take turns, `ROUNDS` windows
 * each; medians are printed with the ratio, the round trips per cycle (commands each client
 * sent) and Redis's CPU per cycle (`INFO cpu`, user + system: commands, scripts and network),
 * and the time Redis spent inside the commands the clients sent (`INFO commandstats`: EVALSHA,
 * EVAL and SET).
 *
 * Run: `npx -y pnpm@10 --filter @toolwaves/redis bench` (`--quick` for shorter windows,
 * `--workers=1,16` for some of the worker counts only, `--profile` to write a `--cpu-prof`
 * profile of the toolwaves worker to `bench/profiles/`).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient } from '@redis/client';
import {
  hasRedisServer,
  redisMissing,
  startRedisServer,
} from '../../../test-support/redis-server.js';

const quick = process.argv.includes('--quick');
const profile = process.argv.includes('--profile');
const ALL_WORKERS = [1, 16, 64, 256];
/** The worker counts at which toolwaves must complete at least as many cycles as redis-semaphore. */
const GOAL_WORKERS = [16, 64, 256];
const workersArg = process.argv.find((arg) => arg.startsWith('--workers='));
const WORKERS =
  workersArg === undefined
    ? ALL_WORKERS
    : workersArg
        .slice('--workers='.length)
        .split(',')
        .map((n) => {
          const count = Number(n);
          if (!Number.isInteger(count) || count < 1) {
            throw new Error(`Expected \`--workers\` to list integers from 1 and up, got \`${n}\``);
          }
          return count;
        });
const ROUNDS = 5;
const WINDOW_MS = quick ? 1000 : 3000;
const SIDES = ['toolwaves', 'redis-semaphore'] as const;
type Side = (typeof SIDES)[number];
const require = createRequire(import.meta.url);
const TSX_LOADER = pathToFileURL(require.resolve('tsx')).href;
const WORKER = fileURLToPath(new URL('./lock-cycles-worker.ts', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('../tsconfig.cli.json', import.meta.url));
const PROFILES = fileURLToPath(new URL('./profiles/', import.meta.url));

type Admin = { sendCommand(args: string[]): Promise<unknown> };

interface Sample {
  readonly perSecond: number;
  readonly tripsPerCycle: number;
  readonly cpuUsPerCycle: number;
  readonly commandUsPerCycle: number;
  readonly clientUsPerCycle: number;
}

function worker(side: Side, url: string) {
  const flags = profile && side === 'toolwaves' ? ['--cpu-prof', `--cpu-prof-dir=${PROFILES}`] : [];
  const child = spawn(process.execPath, [...flags, '--import', TSX_LOADER, WORKER, side, url], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, TSX_TSCONFIG_PATH: TSCONFIG },
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })[
    Symbol.asyncIterator
  ]();
  return {
    child,
    next: async () => String((await lines.next()).value),
    ask: (line: string) => child.stdin?.write(`${line}\n`),
  };
}

/** Redis's CPU so far in µs (`INFO cpu`), and the µs spent inside commands (`INFO commandstats`). */
async function redisMicros(admin: Admin): Promise<{ cpu: number; commands: number }> {
  const cpu = String(await admin.sendCommand(['INFO', 'cpu']));
  const read = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(cpu)?.[1] ?? 0);
  const stats = String(await admin.sendCommand(['INFO', 'commandstats']));
  let commands = 0;
  // what clients send: scripts count their own commands in (and SET is redis-semaphore's acquire)
  for (const match of stats.matchAll(/cmdstat_(evalsha|eval|set):calls=\d+,usec=(\d+)/g)) {
    commands += Number(match[2]);
  }
  return { cpu: (read('used_cpu_user') + read('used_cpu_sys')) * 1e6, commands };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function table(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (row: readonly string[]) =>
    row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  if (!hasRedisServer()) {
    console.log(redisMissing('redis: the Redis benchmarks'));
    return;
  }
  const server = await startRedisServer();
  const admin = createClient({ url: server.url });
  await admin.connect();
  const workers = {
    toolwaves: worker('toolwaves', server.url),
    'redis-semaphore': worker('redis-semaphore', server.url),
  };
  try {
    for (const side of SIDES) {
      const line = await workers[side].next();
      if (line !== 'ready') throw new Error(`${side} worker answered ${line}`);
    }
    const load = () =>
      loadavg()
        .map((l) => l.toFixed(1))
        .join(' ');
    console.log(
      `\nlock cycles side by side (${cpus().length} cores, load average ${load()}; ${ROUNDS} windows of ${WINDOW_MS} ms per side, medians)`,
    );
    const rows: string[][] = [];
    const goals: string[] = [];
    for (const n of WORKERS) {
      const samples: Record<Side, Sample[]> = { toolwaves: [], 'redis-semaphore': [] };
      for (let round = 0; round < ROUNDS; round += 1) {
        const order = round % 2 === 0 ? SIDES : ([...SIDES].reverse() as Side[]);
        for (const side of order) {
          const before = await redisMicros(admin);
          workers[side].ask(`run ${n} ${WINDOW_MS}`);
          const [, cycles, trips, ms, clientUs] = (await workers[side].next())
            .split(' ')
            .map(Number) as [number, number, number, number, number];
          // let the releases still in flight land before reading Redis's counters
          await new Promise((resolve) => setTimeout(resolve, 50));
          const after = await redisMicros(admin);
          samples[side].push({
            perSecond: (cycles * 1000) / ms,
            tripsPerCycle: trips / cycles,
            cpuUsPerCycle: (after.cpu - before.cpu) / cycles,
            commandUsPerCycle: (after.commands - before.commands) / cycles,
            clientUsPerCycle: clientUs / cycles,
          });
        }
      }
      const of = (side: Side, field: keyof Sample) => median(samples[side].map((s) => s[field]));
      const ratio = of('toolwaves', 'perSecond') / of('redis-semaphore', 'perSecond');
      for (const side of SIDES) {
        rows.push([
          String(n),
          side,
          `${of(side, 'perSecond').toFixed(0)}/s`,
          side === 'toolwaves' ? `${ratio.toFixed(2)}x` : '',
          of(side, 'tripsPerCycle').toFixed(2),
          `${of(side, 'cpuUsPerCycle').toFixed(1)} µs`,
          `${of(side, 'commandUsPerCycle').toFixed(1)} µs`,
          `${of(side, 'clientUsPerCycle').toFixed(1)} µs`,
        ]);
      }
      if (GOAL_WORKERS.includes(n) && ratio < 1)
        goals.push(`${n} workers: ${ratio.toFixed(2)}x redis-semaphore (goal ≥ 1)`);
      if (of('toolwaves', 'tripsPerCycle') > 2)
        goals.push(`${n} workers: more than 2 round trips per cycle`);
      if (of('toolwaves', 'cpuUsPerCycle') > 60) {
        goals.push(
          `${n} workers: ${of('toolwaves', 'cpuUsPerCycle').toFixed(1)} µs of Redis CPU per cycle (goal ≤ 60)`,
        );
      }
    }
    console.log(
      table(
        [
          'workers',
          'lock',
          'cycles/s',
          'vs redis-semaphore',
          'round trips/cycle',
          'Redis CPU/cycle',
          'in commands/cycle',
          'client CPU/cycle',
        ],
        rows,
      ),
    );
    // the ratio's goal is checked only at the worker counts that ran (`--workers` may leave some out)
    const checked = GOAL_WORKERS.filter((n) => WORKERS.includes(n));
    const unchecked = GOAL_WORKERS.filter((n) => !WORKERS.includes(n));
    const ratioGoal = checked.length > 0 ? `≥ 1x at ${checked.join(', ')} workers, ` : '';
    const notRun =
      unchecked.length > 0
        ? `; not checked at ${unchecked.join(', ')} workers (not run: see \`--workers\`)`
        : '';
    console.log(
      goals.length === 0
        ? `goals met: ${ratioGoal}≤ 2 round trips and ≤ 60 µs of Redis CPU per cycle${notRun}`
        : `goals missed: ${goals.join('; ')}${notRun}`,
    );
    console.log(`load average after: ${load()}`);
  } finally {
    for (const side of SIDES) workers[side].ask('exit');
    await Promise.all(
      SIDES.map((side) => new Promise((resolve) => workers[side].child.once('exit', resolve))),
    );
    await admin.close();
    await server.stop();
  }
}

await main();
