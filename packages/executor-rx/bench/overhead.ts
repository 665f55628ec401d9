/**
 * Per-call overhead of the Dispatcher on 10 000 no-op calls (cap 8) — every mode: `sequential`,
 * waves (`parallel`), `eager`, streams (`dispatchStream` over an Observable and over an async
 * generator) and a turn (`openTurn`, one `run` per call) — as
 * a ratio to a bare `mergeMap` over the same function and to p-limit, measured side by side in
 * one run:
 * warm-up rounds first, then rounds in rotating order, medians reported. Both wall-clock time
 * and process CPU time are shown (CPU time is steadier on a busy machine). For reference, the
 * time `registry.toPlanNodes` alone takes (part of every parallel dispatch) is shown too, and
 * the time the async generator alone takes to hand over the calls (part of its stream row), and
 * p-limit fed by that same generator and by the same Observable (the like-for-like baselines of
 * the stream rows). The guard checks the goals (`GOALS`) and exits non-zero when one is missed.
 * Each measured run follows an unmeasured run of the same contender, so that it pays for its
 * own garbage, not for the previous contender's.
 *
 * Run: `npx -y pnpm@10 --filter @toolwaves/executor-rx bench`
 */
import { performance } from 'node:perf_hooks';
import { fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import pLimit from 'p-limit';
import { from, lastValueFrom, mergeMap, toArray } from 'rxjs';

const CALLS = 10_000;
const CAP = 8;
const WARMUP_ROUNDS = 3;
const ROUNDS = 11;
/**
 * The goals, per call (CPU): each mode at most `times` its baseline, measured in this run. Eager
 * against p-limit fed the same way; streams and turns against p-limit fed by the same source (a
 * turn's calls are handed over one `run` at a time, as p-limit's are one `limit` call at a time);
 * waves (and sequential, one call per wave) against a bare `mergeMap` with the same cap.
 */
const GOALS: readonly {
  readonly mode: string;
  readonly baseline: string;
  readonly times: number;
}[] = [
  { mode: 'dispatch (eager)', baseline: 'p-limit', times: 1.5 },
  { mode: 'stream (Observable)', baseline: 'p-limit (Observable)', times: 3 },
  { mode: 'stream (async gen)', baseline: 'p-limit (async gen)', times: 3 },
  { mode: 'turn (openTurn)', baseline: 'p-limit', times: 3 },
  { mode: 'dispatch (waves)', baseline: 'bare mergeMap', times: 3 },
];

/** The no-op every contender runs. */
const noop = async (_input: unknown): Promise<string> => 'ok';

const calls: ToolCall[] = Array.from({ length: CALLS }, (_, i) => ({
  id: `call-${i}`,
  name: 'noop',
  input: { i },
}));
const registry = new ToolRegistry().add(
  fnTool({ name: 'noop', description: 'does nothing', concurrencySafe: true, execute: noop }),
);
const dispatcher = new Dispatcher({ registry, mode: 'parallel', maxConcurrency: CAP });
const eager = new Dispatcher({ registry, mode: 'eager', maxConcurrency: CAP });
const sequential = new Dispatcher({ registry, mode: 'sequential' });

/** The calls as a model stream would hand them over: one awaited step per call. */
async function* written(all: readonly ToolCall[]): AsyncGenerator<ToolCall> {
  yield* all;
}

const contenders: Record<string, () => Promise<unknown[]>> = {
  'bare mergeMap': () =>
    lastValueFrom(
      from(calls).pipe(
        mergeMap((call) => from(noop(call.input)), CAP),
        toArray(),
      ),
    ),
  'p-limit': () => {
    const limit = pLimit(CAP);
    return Promise.all(calls.map((call) => limit(() => noop(call.input))));
  },
  'dispatch (sequential)': () => sequential.dispatch(calls),
  'dispatch (waves)': () => dispatcher.dispatch(calls),
  'dispatch (eager)': () => eager.dispatch(calls),
  'stream (Observable)': () => dispatcher.dispatchStream(from(calls)),
  'stream (async gen)': () => dispatcher.dispatchStream(written(calls)),
  'turn (openTurn)': async () => {
    const turn = eager.openTurn();
    const answers = calls.map((call) => turn.run(call));
    await turn.close();
    return Promise.all(answers);
  },
  'toPlanNodes only': async () => registry.toPlanNodes(calls),
  'p-limit (async gen)': async () => {
    const limit = pLimit(CAP);
    const answers: Promise<string>[] = [];
    for await (const call of written(calls)) answers.push(limit(() => noop(call.input)));
    return Promise.all(answers);
  },
  'p-limit (Observable)': () =>
    new Promise<string[]>((resolve, reject) => {
      const limit = pLimit(CAP);
      const answers: Promise<string>[] = [];
      from(calls).subscribe({
        next: (call) => answers.push(limit(() => noop(call.input))),
        error: reject,
        complete: () => resolve(Promise.all(answers)),
      });
    }),
  'async gen alone': async () => {
    const read: ToolCall[] = [];
    for await (const call of written(calls)) read.push(call);
    return read;
  },
};

interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
}

async function measure(run: () => Promise<unknown[]>): Promise<Sample> {
  // An unmeasured run first: the garbage the previous contender left is collected on its time,
  // and the measured run pays for its own.
  await run();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const results = await run();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  if (results.length !== CALLS) throw new Error(`expected ${CALLS} results, got ${results.length}`);
  return { wallMs, cpuMs: (used.user + used.system) / 1_000 };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const names = Object.keys(contenders);
const samples = new Map<string, Sample[]>(names.map((name) => [name, []]));
for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
  // Rotate the order each round so no contender always runs first.
  for (let k = 0; k < names.length; k++) {
    const name = names[(round + k) % names.length]!;
    const sample = await measure(contenders[name]!);
    if (round >= WARMUP_ROUNDS) samples.get(name)!.push(sample);
  }
}

/** Median µs per call of one contender, by wall clock or CPU time. */
const perCall = (name: string, clock: keyof Sample): number =>
  (median(samples.get(name)!.map((sample) => sample[clock])) * 1_000) / CALLS;

console.log(
  `${CALLS} no-op calls, cap ${CAP}: medians of ${ROUNDS} rounds after ${WARMUP_ROUNDS} warm-up rounds (node ${process.version})`,
);
console.log(`  ${''.padEnd(21)}${'wall µs/call'.padStart(14)}${'CPU µs/call'.padStart(14)}`);
for (const name of names) {
  const wall = perCall(name, 'wallMs').toFixed(3).padStart(14);
  const cpu = perCall(name, 'cpuMs').toFixed(3).padStart(14);
  console.log(`  ${name.padEnd(21)}${wall}${cpu}`);
}
const ratio = (a: string, b: string, clock: keyof Sample): string =>
  `${(perCall(a, clock) / perCall(b, clock)).toFixed(2)}×`;
/**
 * Every mode and its like-for-like baseline: p-limit fed by the same source. The array modes and
 * the turn (whose calls are handed over one `run` at a time, as p-limit's are one `limit` call at a
 * time) against p-limit over the array; each stream against p-limit fed by the same stream.
 * Sequential runs one call at a time (cap 1) but is held to p-limit at the batch's cap, the harder
 * bar.
 */
const modes: Record<string, string> = {
  'dispatch (sequential)': 'p-limit',
  'dispatch (waves)': 'p-limit',
  'dispatch (eager)': 'p-limit',
  'stream (Observable)': 'p-limit (Observable)',
  'stream (async gen)': 'p-limit (async gen)',
  'turn (openTurn)': 'p-limit',
};
for (const [name, baseline] of Object.entries(modes)) {
  console.log(
    `${`${name} /`.padEnd(22)} bare mergeMap ${ratio(name, 'bare mergeMap', 'wallMs')} wall, ${ratio(name, 'bare mergeMap', 'cpuMs')} CPU; ${baseline} ${ratio(name, baseline, 'wallMs')} wall, ${ratio(name, baseline, 'cpuMs')} CPU`,
  );
}
const missed: string[] = [];
for (const { mode, baseline, times } of GOALS) {
  const ratioCpu = perCall(mode, 'cpuMs') / perCall(baseline, 'cpuMs');
  const met = ratioCpu <= times;
  if (!met) missed.push(mode);
  console.log(
    `goal ${met ? 'met   ' : 'MISSED'} ${mode.padEnd(20)} ${ratioCpu.toFixed(2)}× ${baseline} (CPU), goal ≤ ${times}×`,
  );
}
console.log(
  missed.length === 0
    ? 'guard: every goal met (CPU per call)'
    : `guard FAILED: ${missed.join(', ')} above its goal (CPU per call)`,
);
if (missed.length > 0) process.exitCode = 1;
console.log(
  `registry.toPlanNodes alone is ${((100 * perCall('toPlanNodes only', 'cpuMs')) / perCall('dispatch (waves)', 'cpuMs')).toFixed(0)}% of waves dispatch (CPU)`,
);
