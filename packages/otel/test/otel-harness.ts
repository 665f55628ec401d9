import { context, type Span, type Tracer, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  type DataPoint,
  type Histogram,
  MeterProvider,
  type MetricData,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';

/** A metric reader that collects when asked (the SDK's readers export on a timer). */
class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** The real OpenTelemetry SDK with in-memory exporters, and ways to read what it got. */
export interface OtelHarness {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  /** The two providers alone: the options of `openTelemetry` (which refuses any other key). */
  readonly providers: {
    readonly tracerProvider: BasicTracerProvider;
    readonly meterProvider: MeterProvider;
  };
  /** A tracer of the test's own, for the caller's span and spans a tool starts. */
  readonly tracer: Tracer;
  /** The finished spans, in the order they ended. */
  spans(): ReadableSpan[];
  /** The one finished span of that name (fails when there are none or several). */
  span(name: string): ReadableSpan;
  /** The metric of that name, collected now. */
  metric(name: string): Promise<MetricData | undefined>;
}

/** A fresh tracer provider (in-memory exporter) and meter provider (collecting reader). */
export function otelHarness(): OtelHarness {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    providers: { tracerProvider, meterProvider },
    tracer: tracerProvider.getTracer('test'),
    spans: () => exporter.getFinishedSpans(),
    span(name) {
      const found = exporter.getFinishedSpans().filter((span) => span.name === name);
      if (found.length !== 1) {
        throw new Error(`expected one span named ${name}, found ${found.length}`);
      }
      return found[0]!;
    },
    async metric(name) {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .find((metric) => metric.descriptor.name === name);
    },
  };
}

/**
 * Registers the AsyncLocalStorage context manager for the file's tests (as the Node SDK does),
 * so that a span a tool starts finds its parent; unregisters it afterwards.
 */
export function useAsyncContext(): void {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => {
    context.disable();
  });
}

/** Runs `fn` inside `span`'s context, as a caller with an active span does. */
export function within<T>(span: Span, fn: () => T): T {
  return context.with(trace.setSpan(context.active(), span), fn);
}

/** The span's parent span id, or undefined for a root span. */
export const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

/** The span's own span id. */
export const idOf = (span: ReadableSpan): string => span.spanContext().spanId;

/** A span's duration in ms. */
export const durationMs = (span: ReadableSpan): number =>
  span.duration[0] * 1000 + span.duration[1] / 1e6;

/** The histogram points of a metric, with their attributes. */
export function histogramPoints(metric: MetricData | undefined): DataPoint<Histogram>[] {
  return (metric?.dataPoints ?? []) as DataPoint<Histogram>[];
}

/** The number points of a metric (a counter's or an up-down counter's), with their attributes. */
export function numberPoints(metric: MetricData | undefined): DataPoint<number>[] {
  return (metric?.dataPoints ?? []) as DataPoint<number>[];
}

/**
 * Runs the file's tests on vitest's fake timers from 0, `performance.now()` included (the
 * instrumentation's clock), so spans' times and the histograms' values are exact.
 */
export function useFakeClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({
      now: 0,
      toFake: [
        'setTimeout',
        'clearTimeout',
        'setInterval',
        'clearInterval',
        'setImmediate',
        'clearImmediate',
        'Date',
        'performance',
      ],
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
