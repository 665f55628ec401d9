import type { Context, Link, Span, Tracer } from '@opentelemetry/api';
import type { SpanClock } from './span-clock.js';
import type { ToolMetrics } from './tool-metrics.js';

/** What every span of one {@link openTelemetry} instrumentation shares. */
export interface SpanSettings {
  readonly tracer: Tracer;
  readonly metrics: ToolMetrics;
  readonly recordArguments: boolean;
  readonly recordResults: boolean;
}

/**
 * What an attempt's span sees of the dispatch (or turn) it belongs to: the settings, the
 * dispatch's clock, the context its spans are children of, and the latest span of each call, for
 * links. `BatchSpan` is the one implementation; the attempt spans depend on this shape only, so
 * the dispatch span can make attempt spans without the two files importing each other.
 */
export interface DispatchSpanScope {
  readonly settings: SpanSettings;
  /** The dispatch's clock: times of its spans and durations of its metrics. */
  readonly clock: SpanClock;
  /** The caller's context with the dispatch's span in it: the parent of the calls' spans. */
  readonly context: Context;
  /** Links to the latest spans of the calls with these ids (those already seen). */
  linksTo(toolCallIds: readonly string[]): Link[];
  /** Records `span` as the latest span of the call `toolCallId`. */
  remember(toolCallId: string, span: Span): void;
}
