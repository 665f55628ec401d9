/**
 * The service process of `pnpm demo --durable`: a Restate service `demo` whose handler `turn`
 * runs one turn of tool calls with `runDurableTurn`, on the demo's tools. Run by the demo in a
 * process of its own (so it can SIGKILL it). Arguments: port, workspace root, log file,
 * latency scale. Prints {@link SERVICE_LOADED} once its modules are loaded, then waits for a
 * `listen` line on stdin before it binds the port (the demo keeps such a standby loaded, so a
 * restart after a crash takes the time of a bind, not of a start), and prints
 * {@link SERVICE_READY} once it listens.
 */
import * as restate from '@restatedev/restate-sdk';
import type { ToolCall } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { runDurableTurn } from '@toolwaves/restate';
import { demoRegistry } from './demo-registry.js';
import { loggedRegistry } from './tool-run-log.js';

/** Printed once the modules are loaded and the process waits for `listen` on stdin. */
export const SERVICE_LOADED = 'durable service loaded';

/** Printed once the endpoint listens. */
export const SERVICE_READY = 'durable service ready';

const [port, root, log, latency] = process.argv.slice(2);
const registry = loggedRegistry({
  registry: demoRegistry({ root: root ?? '.', latency: Number(latency ?? '1') }),
  log: log ?? '',
});
// Eager, four at once; no timeouts or back-off: a durable turn decides from the journal alone.
const dispatcher = new Dispatcher({ registry, mode: 'eager', maxConcurrency: 4 });

const service = restate.service({
  name: 'demo',
  handlers: {
    turn: async (ctx: restate.Context, calls: ToolCall[]) =>
      runDurableTurn(ctx, { dispatcher, registry, calls }),
  },
});

console.log(SERVICE_LOADED);
await listenLine();
await restate.serve({ services: [service], port: Number(port), logger: () => undefined });
console.log(SERVICE_READY);

/**
 * Resolves at the first `listen` line on stdin (the demo's word that this standby takes over).
 * The process ends when stdin does: the demo that started it is gone, and nothing else needs it.
 */
function listenLine(): Promise<void> {
  process.stdin.once('end', () => process.exit(0));
  return new Promise((resolve) => {
    let input = '';
    process.stdin.on('data', (chunk: Buffer) => {
      input += chunk.toString();
      if (input.split('\n').includes('listen')) resolve();
    });
  });
}
