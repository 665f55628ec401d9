import {
  context,
  type MeterProvider,
  metrics,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { Instrumentation } from '@toolwaves/core';
import { checkOptions, type OptionRule, optionRules } from '@toolwaves/core/internal';
import { BatchSpan } from './batch-span.js';
import type { SpanSettings } from './dispatch-span-scope.js';
import { OtelError } from './otel-error.js';
import { toolMetrics } from './tool-metrics.js';

/** Options of {@link openTelemetry}. */
export interface OpenTelemetryOptions {
  /** Where the spans go; default the global tracer provider (`trace.getTracerProvider()`). */
  readonly tracerProvider?: TracerProvider | undefined;
  /** Where the metrics go; default the global meter provider (`metrics.getMeterProvider()`). */
  readonly meterProvider?: MeterProvider | undefined;
  /**
   * Put each call's arguments on its span as JSON (`gen_ai.tool.call.arguments`). Default
   * `false`: arguments may hold anything (file contents, personal data, secrets).
   */
  readonly recordArguments?: boolean | undefined;
  /** Put each call's answer on its span (`gen_ai.tool.call.result`). Default `false`. */
  readonly recordResults?: boolean | undefined;
}

/** The name (instrumentation scope) of this package's tracer and meter. */
export const INSTRUMENTATION_SCOPE = '@toolwaves/otel';

const provides = (method: string): OptionRule<object> => ({
  expected: `an object with a \`${method}\` method`,
  test: (value): value is object =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>)[method] === 'function',
});

/** What each option must be (an unknown one is refused: a misspelt provider would mean no spans). */
const RULES: Readonly<Record<keyof OpenTelemetryOptions, OptionRule<unknown>>> = {
  tracerProvider: provides('getTracer'),
  meterProvider: provides('getMeter'),
  recordArguments: optionRules.boolean,
  recordResults: optionRules.boolean,
};

const invalid = (message: string): OtelError => new OtelError({ code: 'invalid_options', message });

/**
 * OpenTelemetry for a Dispatcher (its `instrumentation` option), after the GenAI semantic
 * conventions:
 * - a `toolwaves.dispatch` span per dispatch (mode, source, planner, call count, waves, outcome;
 *   status ERROR when it was cancelled or failed), a child of the context active where the
 *   dispatch began;
 * - an `execute_tool {gen_ai.tool.name}` span (kind INTERNAL) per attempt of each call, a child
 *   of the dispatch's: `gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.tool.call.id`,
 *   `gen_ai.tool.type`, `gen_ai.tool.description`; a soft error sets `error.type` to its kind and
 *   the status to ERROR. toolwaves adds the attempt number, the ids of the calls it waited for
 *   (and links to their spans), the time it waited for keys and for the fleet, the fencing
 *   token. The tool runs inside the span's context, so a span it starts is the span's child;
 * - metrics: `gen_ai.execute_tool.duration` (s), `toolwaves.call.wait.duration` (s, by
 *   `toolwaves.wait.kind`), `toolwaves.calls.in_flight`.
 *
 * Arguments and results are recorded only when asked.
 *
 * @example
 * ```ts
 * import { openTelemetry } from '@toolwaves/otel';
 * const dispatcher = new Dispatcher({ registry, mode: 'eager', instrumentation: openTelemetry() });
 * ```
 * @throws OtelError `invalid_options` for an option of the wrong kind, naming it and its value,
 * or an unknown option (with a "did you mean" for a near miss: `tracerProvidr` → `tracerProvider`).
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-agent-spans/#execute-tool-span
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Instrumentation {
  checkOptions({ subject: 'openTelemetry', options, rules: RULES, error: invalid });
  const tracerProvider = options.tracerProvider ?? trace.getTracerProvider();
  const meterProvider = options.meterProvider ?? metrics.getMeterProvider();
  const flag = (name: 'recordArguments' | 'recordResults'): boolean => options[name] ?? false;

  const settings: SpanSettings = {
    tracer: tracerProvider.getTracer(INSTRUMENTATION_SCOPE),
    metrics: toolMetrics(meterProvider.getMeter(INSTRUMENTATION_SCOPE)),
    recordArguments: flag('recordArguments'),
    recordResults: flag('recordResults'),
  };
  return { startBatch: (info) => new BatchSpan(settings, info, context.active()) };
}
