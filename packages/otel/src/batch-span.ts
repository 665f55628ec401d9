import {
  type Context,
  type Link,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type {
  AttemptInstrument,
  AttemptStartInfo,
  BatchEndInfo,
  BatchInstrument,
  BatchStartInfo,
} from '@toolwaves/core';
import { AttemptSpan } from './attempt-span.js';
import type { DispatchSpanScope, SpanSettings } from './dispatch-span-scope.js';
import { ATTR_ERROR_TYPE } from './gen-ai-conventions.js';
import { SpanClock } from './span-clock.js';
import {
  ATTR_TOOLWAVES_DISPATCH_CALL_COUNT,
  ATTR_TOOLWAVES_DISPATCH_MAX_CONCURRENCY,
  ATTR_TOOLWAVES_DISPATCH_MODE,
  ATTR_TOOLWAVES_DISPATCH_OUTCOME,
  ATTR_TOOLWAVES_DISPATCH_PLANNER,
  ATTR_TOOLWAVES_DISPATCH_SOURCE,
  ATTR_TOOLWAVES_DISPATCH_WAVES,
  SPAN_NAME_TOOLWAVES_DISPATCH,
} from './toolwaves-attributes.js';

/**
 * One dispatch as a `toolwaves.dispatch` span, parented to the context active where the dispatch
 * began; its calls' spans are its children. It remembers the span of each call's latest attempt,
 * so a later call's span can link to the spans of the calls it waited for.
 */
export class BatchSpan implements BatchInstrument, DispatchSpanScope {
  readonly settings: SpanSettings;
  /** The dispatch's clock: times of its spans and durations of its metrics. */
  readonly clock = new SpanClock();
  /** The caller's context with this dispatch's span in it: the parent of the calls' spans. */
  readonly context: Context;
  readonly #span: Span;
  readonly #calls = new Map<string, SpanContext>();

  constructor(settings: SpanSettings, info: BatchStartInfo, parent: Context) {
    this.settings = settings;
    this.#span = settings.tracer.startSpan(
      SPAN_NAME_TOOLWAVES_DISPATCH,
      {
        kind: SpanKind.INTERNAL,
        startTime: this.clock.hrTime(this.clock.now()),
        attributes: {
          [ATTR_TOOLWAVES_DISPATCH_MODE]: info.mode,
          [ATTR_TOOLWAVES_DISPATCH_SOURCE]: info.source,
          [ATTR_TOOLWAVES_DISPATCH_MAX_CONCURRENCY]: info.maxConcurrency,
          ...(info.planner === undefined
            ? {}
            : { [ATTR_TOOLWAVES_DISPATCH_PLANNER]: info.planner }),
          ...(info.callCount === undefined
            ? {}
            : { [ATTR_TOOLWAVES_DISPATCH_CALL_COUNT]: info.callCount }),
        },
      },
      parent,
    );
    this.context = trace.setSpan(parent, this.#span);
  }

  startAttempt(info: AttemptStartInfo): AttemptInstrument {
    return new AttemptSpan(this, info);
  }

  end(info: BatchEndInfo): void {
    const span = this.#span;
    span.setAttribute(ATTR_TOOLWAVES_DISPATCH_OUTCOME, info.outcome);
    span.setAttribute(ATTR_TOOLWAVES_DISPATCH_CALL_COUNT, info.callCount);
    if (info.waves !== undefined) span.setAttribute(ATTR_TOOLWAVES_DISPATCH_WAVES, info.waves);
    if (info.outcome !== 'ok') {
      span.setAttribute(ATTR_ERROR_TYPE, errorType(info));
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(info) });
    }
    span.end(this.clock.hrTime(this.clock.now()));
  }

  /** Links to the latest spans of the calls with these ids (those already seen). */
  linksTo(toolCallIds: readonly string[]): Link[] {
    const links: Link[] = [];
    for (const id of toolCallIds) {
      const target = this.#calls.get(id);
      if (target !== undefined) links.push({ context: target });
    }
    return links;
  }

  /** Records `span` as the latest span of the call `toolCallId`. */
  remember(toolCallId: string, span: Span): void {
    this.#calls.set(toolCallId, span.spanContext());
  }
}

/** The hard error's `code` (a `DispatchError`'s), else its class name, else the outcome. */
function errorType(info: BatchEndInfo): string {
  const { error } = info;
  if (typeof error === 'object' && error !== null) {
    const { code } = error as { code?: unknown };
    if (typeof code === 'string' && code !== '') return code;
    if (error instanceof Error) return error.name;
  }
  return info.outcome;
}

function errorMessage(info: BatchEndInfo): string {
  return info.error instanceof Error ? info.error.message : info.outcome;
}
