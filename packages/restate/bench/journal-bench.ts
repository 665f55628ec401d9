/**
 * What journaling costs per call: the same turns run through `runDurableTurn` in a Restate
 * handler (a real server from `@restatedev/restate-server`, the endpoint in this process) and
 * through `dispatcher.openTurn()` alone, side by side in one run. Tools answer at once, so the
 * difference is the journal's cost (steps, acknowledgements, the ingress round trip).
 *
 *   pnpm --filter @toolwaves/restate bench [--turns 20] [--calls 20]
 */
import { parseArgs } from 'node:util';
import * as restate from '@restatedev/restate-sdk';
import { fnTool, type Tool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { runDurableTurn } from '../src/index.js';
import {
  freePort,
  restateServerBinary,
  startRestateServer,
} from '../test/fixtures/restate-server.js';

const { values } = parseArgs({
  options: { turns: { type: 'string', default: '20' }, calls: { type: 'string', default: '20' } },
});
const TURNS = Number(values.turns);
const CALLS = Number(values.calls);

const registry = new ToolRegistry()
  .add(
    fnTool({
      name: 'lookup',
      description: 'A read that answers at once',
      concurrencySafe: true,
      access: (input: { key: string }) => [{ key: `kv:/${input.key}`, mode: 'read' }],
      execute: ({ key }: { key: string }) => `value of ${key}`,
    }) as Tool,
  )
  .add(
    fnTool({
      name: 'append',
      description: 'A non-idempotent write that answers at once',
      concurrencySafe: true,
      access: [{ key: 'kv:/log', mode: 'write' }],
      execute: () => 'appended',
    }) as Tool,
  );
const dispatcher = new Dispatcher({ registry, mode: 'eager', maxConcurrency: 8 });

/** Independent reads (they run 8 at a time), or writes to one key (one after another). */
const workloads: Record<string, (turn: number) => ToolCall[]> = {
  'independent reads': (turn) =>
    Array.from({ length: CALLS }, (_, i) => ({
      id: `t${turn}-${i}`,
      name: 'lookup',
      input: { key: `k${i}` },
    })),
  'conflicting non-idempotent writes': (turn) =>
    Array.from({ length: CALLS }, (_, i) => ({ id: `t${turn}-${i}`, name: 'append', input: {} })),
};

async function plainTurn(calls: ToolCall[]): Promise<void> {
  const turn = dispatcher.openTurn();
  const results = calls.map((call) => turn.run(call));
  await turn.close();
  await Promise.all(results);
}

const binary = restateServerBinary();
if (binary === undefined) {
  console.log('restate bench: no restate-server binary for this platform; nothing measured');
  process.exit(0);
}
const server = await startRestateServer(binary);
const port = await freePort();
const service = restate.service({
  name: 'bench',
  handlers: {
    turn: (ctx: restate.Context, calls: ToolCall[]) =>
      runDurableTurn(ctx, { dispatcher, registry, calls }),
  },
});
await restate.serve({ services: [service], port, logger: () => undefined });
await server.register(`http://127.0.0.1:${port}`);

async function durableTurn(calls: ToolCall[]): Promise<void> {
  const response = await fetch(`${server.ingressUrl}/bench/turn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls),
  });
  if (!response.ok) throw new Error(await response.text());
  await response.json();
}

async function msPerCall(
  run: (calls: ToolCall[]) => Promise<void>,
  make: (turn: number) => ToolCall[],
): Promise<number> {
  for (let turn = 0; turn < 3; turn++) await run(make(-1 - turn)); // warm-up
  const start = performance.now();
  for (let turn = 0; turn < TURNS; turn++) await run(make(turn));
  return (performance.now() - start) / (TURNS * CALLS);
}

console.log(
  `restate bench: ${TURNS} turns of ${CALLS} calls each, eager, cap 8, tools answer at once`,
);
for (const [name, make] of Object.entries(workloads)) {
  const plain = await msPerCall(plainTurn, make);
  const durable = await msPerCall(durableTurn, make);
  console.log(
    `  ${name}: ${durable.toFixed(3)} ms/call on Restate, ${plain.toFixed(3)} ms/call without; journaling costs ${(durable - plain).toFixed(3)} ms/call (${(durable / plain).toFixed(0)}×)`,
  );
}
await server.stop();
process.exit(0);
