/**
 * What `whileStreaming: 'read-only'` costs per call where it holds nothing back: 10 000 no-op
 * reads through `dispatchStream` and through a turn, with `'all'` and with `'read-only'`, side by
 * side in one run (warm-up rounds first, then rounds in rotating order, each measured run after
 * an unmeasured run of the same contender; medians of process CPU time per call).
 *
 * Run: `npx tsx packages/executor-rx/bench/while-streaming-cost.ts` (from the repository root)
 */
import { fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { from } from 'rxjs';

const CALLS = 10_000;
const WARMUP_ROUNDS = 3;
const ROUNDS = 11;

const noop = async (): Promise<string> => 'ok';
const calls: ToolCall[] = Array.from({ length: CALLS }, (_, i) => ({
  id: `c${i}`,
  name: 'noop',
  input: { i },
}));
const registry = new ToolRegistry().add(
  fnTool({ name: 'noop', description: 'does nothing', concurrencySafe: true, execute: noop }),
);
const all = new Dispatcher({ registry, mode: 'eager', maxConcurrency: 8, whileStreaming: 'all' });
const readOnly = new Dispatcher({
  registry,
  mode: 'eager',
  maxConcurrency: 8,
  whileStreaming: 'read-only',
});

const turnOf = (dispatcher: Dispatcher) => async (): Promise<unknown> => {
  const turn = dispatcher.openTurn();
  const results = calls.map((call) => turn.run(call));
  await turn.close();
  return Promise.all(results);
};

const contenders: Record<string, () => Promise<unknown>> = {
  "stream 'all'": () => all.dispatchStream(from(calls)),
  "stream 'read-only'": () => readOnly.dispatchStream(from(calls)),
  "turn 'all'": turnOf(all),
  "turn 'read-only'": turnOf(readOnly),
};

const names = Object.keys(contenders);
const cpu: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(k + round) % names.length]!;
    await contenders[name]!();
    const start = process.cpuUsage();
    await contenders[name]!();
    const used = process.cpuUsage(start);
    if (round >= WARMUP_ROUNDS) cpu[name]!.push((used.user + used.system) / CALLS);
  }
}
const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
for (const name of names) {
  console.log(`${name.padEnd(20)} ${median(cpu[name]!).toFixed(3)} µs CPU/call`);
}
for (const kind of ['stream', 'turn']) {
  const ratio = median(cpu[`${kind} 'read-only'`]!) / median(cpu[`${kind} 'all'`]!);
  console.log(`${kind}: 'read-only' / 'all' ${ratio.toFixed(2)}× CPU`);
}
