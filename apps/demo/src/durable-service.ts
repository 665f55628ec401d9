/**
 * The service process of `pnpm demo --durable`: a Restate service `demo` whose handler `turn`
 * runs one turn of tool calls with `runDurableTurn`, on the demo's tools. Run by the demo in a
 * process of its own (so it can SIGKILL it). Arguments: port, workspace root, log file,
 * latency scale. Prints {@link SERVICE_READY} once it listens.
 */
import * as restate from '@restatedev/restate-sdk';
import type { ToolCall } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { runDurableTurn } from '@toolwaves/restate';
import { demoRegistry } from './demo-registry.js';
import { loggedRegistry } from './tool-run-log.js';

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

await restate.serve({ services: [service], port: Number(port), logger: () => undefined });
console.log(SERVICE_READY);
