import { type Context, context, isSpanContextValid, trace } from '@opentelemetry/api';

/** The W3C trace context of an MCP request, as its `params._meta` carries it. */
export interface TraceContextMeta {
  /** `00-{trace id}-{parent span id}-{flags}`. */
  readonly traceparent: string;
  /** The vendors' trace state, when the span context has one. */
  readonly tracestate?: string;
}

/**
 * The W3C trace context of `from` (default: the active context) for an MCP request's `_meta`
 * (`traceparent`, and `tracestate` when there is one), as the MCP specification's 2026-07-28
 * revision has it, so that an instrumented server continues the caller's trace. `undefined`
 * when there is no valid span in the context (no tracing set up, or a non-recording root).
 *
 * Inside a Dispatcher with `@toolwaves/otel`'s instrumentation, the active span of a tool's
 * `execute` is its `execute_tool` span: the server's spans become its children.
 *
 * @example
 * ```ts
 * traceContextMeta();
 * // { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }
 * ```
 * @see withTraceContext, which adds it to a request's params.
 */
export function traceContextMeta(from: Context = context.active()): TraceContextMeta | undefined {
  const spanContext = trace.getSpanContext(from);
  if (spanContext === undefined || !isSpanContextValid(spanContext)) return undefined;
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
  const traceparent = `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
  const tracestate = spanContext.traceState?.serialize();
  return tracestate === undefined || tracestate === ''
    ? { traceparent }
    : { traceparent, tracestate };
}

/**
 * An MCP request's params with the active W3C trace context added to their `_meta` (keeping what
 * `_meta` held); the params as they are when there is no trace to continue.
 *
 * @example
 * ```ts
 * client.callTool(withTraceContext({ name: 'read_file', arguments: { path } }));
 * ```
 * @see traceContextMeta
 */
export function withTraceContext<P extends object>(params: P): P {
  const meta = traceContextMeta();
  if (meta === undefined) return params;
  const { _meta: held } = params as { readonly _meta?: Record<string, unknown> };
  return { ...params, _meta: { ...held, ...meta } };
}
