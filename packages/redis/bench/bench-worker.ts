/**
 * One process of the fleet benchmark: its own Dispatcher with a no-op tool and a 5 ms tool,
 * each call writing a key of its own process (no contention: the figures are the coordinator's
 * overhead, not waiting). Reads commands from stdin, one per line — `<arm> <tool> <calls>`, arm
 * `none` (no coordinator), `ping` (two bare round trips per call) or `redis` — runs that many single-call dispatches one after another
 * and answers `done <ms> <roundTrips>`.
 */
import { createInterface } from 'node:readline';
import { createClient } from '@redis/client';
import { type Coordinator, fnTool, ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { redisCoordinator } from '../src/index.js';

const [url = '', namespace = 'bench', me = '0'] = process.argv.slice(2);

const registry = new ToolRegistry()
  .add(
    fnTool({
      name: 'noop',
      description: 'does nothing',
      concurrencySafe: true,
      access: [{ key: `bench:/p${me}/noop`, mode: 'write' }],
      execute: () => 'ok',
    }),
  )
  .add(
    fnTool({
      name: 'wait5',
      description: 'takes 5 ms',
      concurrencySafe: true,
      access: [{ key: `bench:/p${me}/wait5`, mode: 'write' }],
      execute: () => new Promise<string>((resolve) => setTimeout(() => resolve('ok'), 5)),
    }),
  );
const coordinator = redisCoordinator({ url, namespace });
/** The floor for any coordinator on Redis: the same two round trips (PING), no locking. */
const pings = createClient({ url, disableOfflineQueue: true });
await pings.connect();
const never = new AbortController().signal;
const pingCoordinator: Coordinator = {
  acquire: async () => {
    await pings.sendCommand(['PING']);
    return {
      lost: never,
      release: () => {
        pings.sendCommand(['PING']).catch(() => undefined);
        return Promise.resolve();
      },
    };
  },
};
const dispatchers = {
  none: new Dispatcher({ registry }),
  ping: new Dispatcher({ registry, coordinator: pingCoordinator }),
  redis: new Dispatcher({ registry, coordinator }),
};

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line === 'exit') break;
  const [arm, tool, count] = line.split(' ') as [keyof typeof dispatchers, string, string];
  const dispatcher = dispatchers[arm];
  const calls = Number(count);
  const tripsBefore = coordinator.roundTrips;
  const started = performance.now();
  for (let i = 0; i < calls; i += 1) {
    const [result] = await dispatcher.dispatch([{ id: `c${i}`, name: tool, input: {} }]);
    if (result?.isError) throw new Error(`bench call failed: ${String(result.content)}`);
  }
  const ms = performance.now() - started;
  process.stdout.write(`done ${ms} ${coordinator.roundTrips - tripsBefore}\n`);
}
await coordinator.close();
await pings.close();
lines.close();
