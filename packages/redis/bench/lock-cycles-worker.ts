/**
 * One side of the lock comparison (`lock-comparison.ts`), in a process of its own: `toolwaves`
 * (one `redisCoordinator`, one connection) or `redis-semaphore` (its `Mutex` on one ioredis
 * client, default options: 10 ms polling, a refresh timer per lock). Arguments: the side and
 * the Redis URL. Prints `ready`; then, for each line `run <workers> <ms>` on stdin, runs that
 * many loops at once for that long, each taking and giving back a lock on a key of its own
 * (`acquire` then `release`, as a user of that library writes it), and prints
 * `done <cycles> <round trips> <ms> <CPU µs of this process>`.
 */
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { CoordinationRequest } from '@toolwaves/core';
import { Redis } from 'ioredis';
import { Mutex } from 'redis-semaphore';
import { redisCoordinator } from '../src/index.js';

const [side = 'toolwaves', url = ''] = process.argv.slice(2);

/** One acquire+release cycle on `key`. */
type Cycle = (key: string) => Promise<void>;

function toolwaves(): { cycle: Cycle; roundTrips: () => number; close: () => Promise<void> } {
  const coordinator = redisCoordinator({ url, namespace: 'compare' });
  // the caller's signal: the Dispatcher has one per call whether or not it coordinates, so it is
  // not made here per cycle (that would time the AbortController, not the lock)
  const signal = new AbortController().signal;
  return {
    cycle: async (key) => {
      const request: CoordinationRequest = {
        toolCallId: key,
        toolName: 'bench',
        access: [{ key, mode: 'write' }],
        signal,
      };
      const grant = await coordinator.acquire(request);
      await grant.release();
    },
    roundTrips: () => coordinator.roundTrips,
    close: () => coordinator.close(),
  };
}

function semaphore(): { cycle: Cycle; roundTrips: () => number; close: () => Promise<void> } {
  const client = new Redis(url, { lazyConnect: false });
  let sent = 0;
  // every command ioredis sends goes through sendCommand: count them as round trips
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((...args: Parameters<typeof send>) => {
    sent += 1;
    return send(...args);
  }) as typeof send;
  return {
    cycle: async (key) => {
      const mutex = new Mutex(client, `compare:${key}`);
      await mutex.acquire();
      await mutex.release();
    },
    roundTrips: () => sent,
    close: async () => {
      await client.quit();
    },
  };
}

const arm = side === 'toolwaves' ? toolwaves() : semaphore();
// warm up: connect, load scripts, let the JIT see the loop
for (let i = 0; i < 200; i += 1) await arm.cycle(`bench:/warm/${i % 4}`);
process.stdout.write('ready\n');

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line === 'exit') break;
  const [, workers, ms] = line.split(' ').map(Number) as [number, number, number];
  const run = randomUUID().slice(0, 8);
  const tripsBefore = arm.roundTrips();
  let cycles = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      const key = `bench:/${run}/w${w}`;
      while (performance.now() - started < ms) {
        await arm.cycle(key);
        cycles += 1;
      }
    }),
  );
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuUs = cpu.user + cpu.system;
  process.stdout.write(`done ${cycles} ${arm.roundTrips() - tripsBefore} ${elapsed} ${cpuUs}\n`);
}
await arm.close();
lines.close();
process.exit(0);
