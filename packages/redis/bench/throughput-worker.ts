/**
 * One process of the throughput benchmark (`fleet-scaling.ts`): hosts `count` coordinators of
 * one namespace, each acquiring and releasing a key of its own in a loop. Arguments: Redis URL,
 * namespace, first coordinator index, count. Prints `ready` once every coordinator is
 * connected; on a line `go <ms>` on stdin it runs for that long and prints `done <grants>`.
 */
import { createInterface } from 'node:readline';
import type { CoordinationRequest } from '@toolwaves/core';
import { redisCoordinator } from '../src/index.js';

const [url = '', namespace = 'bench', first = '0', count = '1'] = process.argv.slice(2);

function request(key: string): CoordinationRequest {
  return {
    toolCallId: key,
    toolName: 'bench',
    access: [{ key, mode: 'write' }],
    signal: new AbortController().signal,
  };
}

const fleet = Array.from({ length: Number(count) }, (_, i) => ({
  coordinator: redisCoordinator({ url, namespace, leaseMs: 30_000 }),
  key: `bench:/own/${Number(first) + i}`,
}));
await Promise.all(
  fleet.map(async ({ coordinator, key }) => (await coordinator.acquire(request(key))).release()),
);
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const command = String((await lines.next()).value);
const ms = Number(command.split(' ')[1]);
let grants = 0;
const started = performance.now();
await Promise.all(
  fleet.map(async ({ coordinator, key }) => {
    while (performance.now() - started < ms) {
      const grant = await coordinator.acquire(request(key));
      grants += 1;
      await grant.release();
    }
  }),
);
process.stdout.write(`done ${grants}\n`);
await Promise.all(fleet.map(({ coordinator }) => coordinator.close()));
process.exit(0);
