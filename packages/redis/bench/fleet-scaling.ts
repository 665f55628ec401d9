/**
 * How the fleet coordinator scales, measured in one run against its own `redis-server`:
 * - per grant, with 1, 100 and 1 000 waiters queued on one key: the round trips every
 *   coordinator sent and the Redis CPU spent in the scripts (`INFO commandstats`), while the
 *   waiters are granted one after the other (each releases as soon as it is granted);
 * - grants per second through one namespace with 1, 16, 64 and 1 000 coordinators (spread over
 *   up to 4 processes, as a fleet is many processes), each
 *   acquiring and releasing a key of its own in a loop (Redis and every client on this machine);
 * - the latency of a hand-off on one contended key: from a holder's `release()` to the next
 *   waiter's grant, in another coordinator;
 * - the per-call cost of the fs tools' fenced commit: `write_file` with a fencing token (claim,
 *   host commit lock, fence store) against the same atomic write without the fence.
 *
 * Run: `npx -y pnpm@10 --filter @toolwaves/redis bench` (`--quick` for shorter runs).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient } from '@redis/client';
import type { CoordinationGrant, ToolContext } from '@toolwaves/core';
import { draftFile, fsToolsModule, WriteFileTool } from '@toolwaves/tools-fs';
import { Container } from 'inversify';
import {
  hasRedisServer,
  redisMissing,
  startRedisServer,
} from '../../../test-support/redis-server.js';
import { type RedisCoordinator, redisCoordinator } from '../src/index.js';

const quick = process.argv.includes('--quick');
const WAITERS = [1, 100, 1000];
const COORDINATORS = [1, 16, 64, 1000];
/** The throughput run spreads its coordinators over this many processes. */
const PROCESSES = 4;
const THROUGHPUT_MS = quick ? 1500 : 4000;
const HAND_OFFS = quick ? 200 : 1000;
const FENCED_WRITES = quick ? 200 : 1000;
const never = new AbortController().signal;
const require = createRequire(import.meta.url);
const TSX_LOADER = pathToFileURL(require.resolve('tsx')).href;
const THROUGHPUT_WORKER = fileURLToPath(new URL('./throughput-worker.ts', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('../tsconfig.cli.json', import.meta.url));
/** A plain connection for `INFO`. */
type Admin = { sendCommand(args: string[]): Promise<unknown> };

let calls = 0;
function request(key: string, toolName = 'bench') {
  calls += 1;
  return {
    toolCallId: `c${calls}`,
    toolName,
    access: [{ key, mode: 'write' as const }],
    // a signal per call, as the Dispatcher gives (one shared signal would collect a listener per waiter)
    signal: new AbortController().signal,
  };
}

function coordinators(url: string, namespace: string, n: number): RedisCoordinator[] {
  return Array.from({ length: n }, () => redisCoordinator({ url, namespace, leaseMs: 30_000 }));
}

function trips(all: readonly RedisCoordinator[]): number {
  return all.reduce((sum, c) => sum + c.roundTrips, 0);
}

/** Microseconds Redis spent running the coordinator's scripts so far (`INFO commandstats`). */
async function scriptMicros(admin: Admin): Promise<number> {
  const info = String(await admin.sendCommand(['INFO', 'commandstats']));
  let total = 0;
  for (const match of info.matchAll(/cmdstat_(?:evalsha|eval):calls=\d+,usec=(\d+)/g)) {
    total += Number(match[1]);
  }
  return total;
}

async function waitersOnOneKey(url: string, admin: Admin) {
  const rows: string[][] = [];
  for (const waiters of WAITERS) {
    const fleet = coordinators(url, `waiters-${waiters}`, 10);
    const holder = fleet[0] as RedisCoordinator;
    // few waiters: repeat, so every row counts at least 100 grants
    const rounds = Math.max(1, Math.round(100 / waiters));
    let tripsSpent = 0;
    let cpuSpent = 0;
    let wallSpent = 0;
    for (let round = 0; round < rounds; round += 1) {
      const first = await holder.acquire(request('bench:/hot'));
      let granted = 0;
      let done: () => void = () => undefined;
      const allGranted = new Promise<void>((resolve) => {
        done = resolve;
      });
      for (let i = 0; i < waiters; i += 1) {
        const coordinator = fleet[i % fleet.length] as RedisCoordinator;
        coordinator.acquire(request('bench:/hot')).then(async (grant: CoordinationGrant) => {
          await grant.release();
          granted += 1;
          if (granted === waiters) done();
        });
      }
      // every waiter is queued (each coordinator's commands are answered in order)
      await Promise.all(
        fleet.map(async (c, i) => (await c.acquire(request(`bench:/probe-${i}`))).release()),
      );
      const tripsBefore = trips(fleet);
      const cpuBefore = await scriptMicros(admin);
      const started = performance.now();
      await first.release();
      await allGranted;
      wallSpent += performance.now() - started;
      cpuSpent += (await scriptMicros(admin)) - cpuBefore;
      tripsSpent += trips(fleet) - tripsBefore;
    }
    const grants = waiters * rounds;
    rows.push([
      String(waiters),
      (tripsSpent / grants).toFixed(2),
      `${(cpuSpent / grants).toFixed(1)} µs`,
      `${((wallSpent * 1000) / grants).toFixed(0)} µs`,
    ]);
    await Promise.all(fleet.map((c) => c.close()));
  }
  return rows;
}

/** Seconds of CPU the Redis process has used so far (`INFO cpu`, user + system). */
async function redisCpuSeconds(admin: Admin): Promise<number> {
  const info = String(await admin.sendCommand(['INFO', 'cpu']));
  const read = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return read('used_cpu_user') + read('used_cpu_sys');
}

/** A worker process of the throughput run (`throughput-worker.ts`) hosting some coordinators. */
function throughputWorker(url: string, namespace: string, first: number, count: number) {
  const child = spawn(
    process.execPath,
    ['--import', TSX_LOADER, THROUGHPUT_WORKER, url, namespace, String(first), String(count)],
    { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, TSX_TSCONFIG_PATH: TSCONFIG } },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })[
    Symbol.asyncIterator
  ]();
  return { child, next: async () => String((await lines.next()).value) };
}

async function throughput(url: string, admin: Admin) {
  const rows: string[][] = [];
  for (const n of COORDINATORS) {
    // the coordinators live in up to PROCESSES processes (a fleet is many processes)
    const processes = Math.min(n, PROCESSES);
    const workers = Array.from({ length: processes }, (_, p) => {
      const first = Math.floor((p * n) / processes);
      const last = Math.floor(((p + 1) * n) / processes);
      return throughputWorker(url, `throughput-${n}`, first, last - first);
    });
    for (const worker of workers) {
      const line = await worker.next();
      if (line !== 'ready') throw new Error(`throughput worker answered ${line}`);
    }
    const cpuBefore = await redisCpuSeconds(admin);
    const started = performance.now();
    for (const worker of workers) worker.child.stdin?.write(`go ${THROUGHPUT_MS}\n`);
    let grants = 0;
    for (const worker of workers) grants += Number((await worker.next()).split(' ')[1]);
    const seconds = (performance.now() - started) / 1000;
    const cpu = (await redisCpuSeconds(admin)) - cpuBefore;
    rows.push([
      String(n),
      String(processes),
      `${(grants / seconds).toFixed(0)}/s`,
      `${((cpu * 1e6) / grants).toFixed(1)} µs`,
    ]);
    await Promise.all(workers.map((w) => new Promise((resolve) => w.child.once('exit', resolve))));
  }
  return rows;
}

async function handOffs(url: string) {
  const [a, b] = coordinators(url, 'hand-off', 2) as [RedisCoordinator, RedisCoordinator];
  let holder = await a.acquire(request('bench:/contended'));
  let sides: [RedisCoordinator, RedisCoordinator] = [b, a];
  const latencies: number[] = [];
  const started = performance.now();
  for (let i = 0; i < HAND_OFFS; i += 1) {
    const next = sides[0].acquire(request('bench:/contended'));
    // let the waiter's request reach Redis before the release (its own connection)
    await (await sides[0].acquire(request(`bench:/probe-${i}`))).release();
    const releasedAt = performance.now();
    await holder.release();
    holder = await next;
    latencies.push(performance.now() - releasedAt);
    sides = [sides[1], sides[0]];
  }
  const elapsed = performance.now() - started;
  await holder.release();
  await Promise.all([a.close(), b.close()]);
  latencies.sort((x, y) => x - y);
  const median = latencies[Math.floor(latencies.length / 2)] ?? Number.NaN;
  return { medianMs: median, perSecond: HAND_OFFS / (elapsed / 1000) };
}

async function fencedCommit() {
  const root = await mkdtemp(join(tmpdir(), 'toolwaves-bench-fence-'));
  // a fence of its own for the run: the default one is the user's, shared by every workspace
  const fenceTempDir = await mkdtemp(join(tmpdir(), 'toolwaves-bench-fence-tmp-'));
  const container = new Container();
  container.load(fsToolsModule({ root, fenceTempDir }));
  const tool = container.get(WriteFileTool);
  const context = (i: number): ToolContext => ({
    toolCallId: `w${i}`,
    signal: never,
    attempt: 1,
    fencingToken: i + 1,
  });
  const plain = async (i: number) => {
    const draft = await draftFile({ target: join(root, `plain-${i % 50}.txt`), content: `${i}\n` });
    await draft.commit();
  };
  const fenced = (i: number) =>
    tool.execute({ path: `fenced-${i % 50}.txt`, content: `${i}\n` }, context(i));
  const timings = { plain: [] as number[], fenced: [] as number[] };
  for (let round = 0; round < 5; round += 1) {
    for (const [name, write] of [
      ['plain', plain],
      ['fenced', fenced],
    ] as const) {
      const started = performance.now();
      for (let i = 0; i < FENCED_WRITES / 5; i += 1) await write(round * 1000 + i);
      timings[name].push(((performance.now() - started) * 1000) / (FENCED_WRITES / 5));
    }
  }
  await rm(root, { recursive: true, force: true });
  await rm(fenceTempDir, { recursive: true, force: true });
  const median = (v: number[]) => [...v].sort((x, y) => x - y)[2] ?? Number.NaN;
  return { plainUs: median(timings.plain), fencedUs: median(timings.fenced) };
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
  try {
    const load = () =>
      loadavg()
        .map((l) => l.toFixed(1))
        .join(' ');
    console.log(`\nfleet scaling (${cpus().length} cores, load average ${load()})`);
    console.log('\nwaiters queued on one key, granted one after the other (each releases at once)');
    console.log(
      table(
        ['waiters', 'round trips/grant', 'Redis time in scripts/grant', 'wall/grant'],
        await waitersOnOneKey(server.url, admin),
      ),
    );
    console.log('\ngrants/s through one namespace, each coordinator on a key of its own');
    const rows = await throughput(server.url, admin);
    console.log(table(['coordinators', 'processes', 'grants/s', 'Redis CPU/grant'], rows));
    const at = (n: number) =>
      Number((rows.find((r) => r[0] === String(n)) ?? [])[2]?.replace('/s', ''));
    console.log(`1 000 coordinators vs 16: ${((at(1000) / at(16)) * 100).toFixed(0)} %`);
    const handOff = await handOffs(server.url);
    console.log(
      `\nhand-off on one contended key (release → next holder in another coordinator): median ${(handOff.medianMs * 1000).toFixed(0)} µs, ${handOff.perSecond.toFixed(0)} hand-offs/s (each also waits for a probe round trip)`,
    );
    const fence = await fencedCommit();
    console.log(
      `\nfenced commit of write_file (claim + host commit lock + fence store) vs the same atomic write alone: ${fence.fencedUs.toFixed(0)} µs vs ${fence.plainUs.toFixed(0)} µs per write (+${(fence.fencedUs - fence.plainUs).toFixed(0)} µs, ${(fence.fencedUs / fence.plainUs).toFixed(2)}x); load average ${load()}`,
    );
  } finally {
    await admin.close();
    await server.stop();
  }
}

await main();
