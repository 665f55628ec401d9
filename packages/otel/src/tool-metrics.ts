import type { Histogram, Meter, UpDownCounter } from '@opentelemetry/api';
import { METRIC_GEN_AI_EXECUTE_TOOL_DURATION } from './gen-ai-conventions.js';
import {
  METRIC_TOOLWAVES_CALL_WAIT_DURATION,
  METRIC_TOOLWAVES_CALLS_IN_FLIGHT,
} from './toolwaves-attributes.js';

/** The instruments one {@link openTelemetry} instrumentation records to. */
export interface ToolMetrics {
  /** `gen_ai.execute_tool.duration`, s: one point per `execute_tool` span, its duration. */
  readonly executeDuration: Histogram;
  /** `toolwaves.call.wait.duration`, s: how long attempts waited for keys and for the fleet. */
  readonly waitDuration: Histogram;
  /** `toolwaves.calls.in_flight`: tools running now. */
  readonly inFlight: UpDownCounter;
}

/** Bucket bounds in seconds, from 1 ms to about a minute (tool calls, not HTTP requests). */
const SECONDS_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * Creates the instruments of {@link ToolMetrics} on `meter`.
 *
 * @example
 * ```ts
 * const instruments = toolMetrics(metrics.getMeter('@toolwaves/otel'));
 * instruments.inFlight.add(1, { 'gen_ai.tool.name': 'read_file' });
 * ```
 */
export function toolMetrics(meter: Meter): ToolMetrics {
  return {
    executeDuration: meter.createHistogram(METRIC_GEN_AI_EXECUTE_TOOL_DURATION, {
      description: 'Duration of a tool execution (one attempt of one call).',
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
    }),
    waitDuration: meter.createHistogram(METRIC_TOOLWAVES_CALL_WAIT_DURATION, {
      description: 'Time a call attempt waited before its tool could run, by what it waited for.',
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
    }),
    inFlight: meter.createUpDownCounter(METRIC_TOOLWAVES_CALLS_IN_FLIGHT, {
      description: 'Tools running now (granted and not yet ended).',
      unit: '{call}',
    }),
  };
}
