/**
 * Per-call cost of the instrumentation, measured side by side in one run: the same batches of
 * no-op calls through one Dispatcher each, with
 * - no instrumentation (the baseline),
 * - an instrumentation that does nothing (what the Dispatcher's instrumented path costs by itself),
 * - `openTelemetry()` with the API's no-op tracer and meter (nothing registered: what a library
 *   user pays when the application does not trace),
 * - `openTelemetry()` with the SDK's tracer (a batch span processor, its exporter dropping what it
 *   gets) and the SDK's meter (a reader that collects at the end).
 * The AsyncLocalStorage context manager is registered in every arm, as the Node SDK does. Arms
 * alternate over several rounds; medians are reported, with each arm's extra cost per call over
 * the baseline.
 *
 * Run: `npx -y pnpm@10 --filter @toolwaves/otel bench` (`--quick` for fewer rounds).
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { fnTool, type Instrumentation, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { openTelemetry } from '../src/index.js';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 5 : 15;
const BATCHES = quick ? 40 : 100;
const CALLS = 20;

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

/** An exporter that drops the spans: the cost measured is the SDK's, not an export's. */
const dropping: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => undefined,
};
class CollectAtEnd extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}
const reader = new CollectAtEnd();
const sdk = openTelemetry({
  tracerProvider: new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(dropping, { maxQueueSize: 1 << 16 })],
  }),
  meterProvider: new MeterProvider({ readers: [reader] }),
});

/** Wraps nothing; not `noInstrumentation`, which the Dispatcher takes as none at all. */
const doNothing: Instrumentation = {
  startBatch: () => ({
    startAttempt: () => ({ granted: () => undefined, run: (fn) => fn(), end: () => undefined }),
    end: () => undefined,
  }),
};

const registry = new ToolRegistry().add(
  fnTool({ name: 'noop', description: 'Does nothing', concurrencySafe: true, execute: () => 'ok' }),
);
const calls: ToolCall[] = Array.from({ length: CALLS }, (_, i) => ({
  id: `call_${i}`,
  name: 'noop',
  input: {},
}));

const arms: { name: string; instrumentation: Instrumentation | undefined }[] = [
  { name: 'no instrumentation', instrumentation: undefined },
  { name: 'a do-nothing instrumentation', instrumentation: doNothing },
  { name: 'openTelemetry, no-op tracer', instrumentation: openTelemetry() },
  { name: 'openTelemetry, SDK tracer', instrumentation: sdk },
];
const dispatchers = arms.map(
  ({ instrumentation }) =>
    new Dispatcher({
      registry,
      mode: 'eager',
      ...(instrumentation === undefined ? {} : { instrumentation }),
    }),
);

/** µs per call for `BATCHES` batches of `CALLS` calls. */
async function sample(dispatcher: Dispatcher): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < BATCHES; i += 1) await dispatcher.dispatch(calls);
  return ((performance.now() - started) * 1000) / (BATCHES * CALLS);
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

for (const dispatcher of dispatchers) await sample(dispatcher); // warm-up
const samples: number[][] = arms.map(() => []);
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [i, dispatcher] of dispatchers.entries()) samples[i]!.push(await sample(dispatcher));
}
await reader.collect();

const base = median(samples[0]!);
console.log(
  `toolwaves otel overhead: ${ROUNDS} rounds × ${BATCHES} batches × ${CALLS} no-op calls, eager mode, node ${process.version}`,
);
console.log(
  `${'arm'.padEnd(30)} ${'µs/call'.padStart(9)} ${'extra µs/call'.padStart(14)} ${'× baseline'.padStart(11)}`,
);
for (const [i, arm] of arms.entries()) {
  const perCall = median(samples[i]!);
  console.log(
    `${arm.name.padEnd(30)} ${perCall.toFixed(2).padStart(9)} ${(perCall - base).toFixed(2).padStart(14)} ${(perCall / base).toFixed(2).padStart(11)}`,
  );
}
