import {
  type Attributes,
  context,
  type Link,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type {
  AttemptEndInfo,
  AttemptGrantInfo,
  AttemptInstrument,
  AttemptStartInfo,
} from '@toolwaves/core';
import type { DispatchSpanScope } from './dispatch-span-scope.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  executeToolSpanName,
  GEN_AI_OPERATION_EXECUTE_TOOL,
  GEN_AI_TOOL_TYPE_FUNCTION,
} from './gen-ai-conventions.js';
import {
  ATTR_TOOLWAVES_CALL_ATTEMPT,
  ATTR_TOOLWAVES_CALL_FENCING_TOKEN,
  ATTR_TOOLWAVES_CALL_FLEET_WAIT_MS,
  ATTR_TOOLWAVES_CALL_INDEX,
  ATTR_TOOLWAVES_CALL_KEY_WAIT_MS,
  ATTR_TOOLWAVES_CALL_OUTCOME,
  ATTR_TOOLWAVES_CALL_RETRIED,
  ATTR_TOOLWAVES_CALL_WAITED_FOR,
  ATTR_TOOLWAVES_WAIT_KIND,
} from './toolwaves-attributes.js';

/** The error type of an attempt cut short by its batch (cancelled, or failed on another call). */
const CANCELLED = 'cancelled';
/** The error type of a soft error that came without a kind. */
const TOOL_ERROR = 'tool_error';

/**
 * One attempt of one call as an `execute_tool` span. The span begins when the tool may run
 * (`granted`, after any wait: the waits are attributes, the calls waited for are links), so a
 * trace's timeline shows when tools actually ran; an attempt that never ran (cancelled while it
 * waited, or answered before running) gets a span from when it began to when it ended. The tool
 * runs in the span's context; the execution-time histogram gets the span's duration.
 */
export class AttemptSpan implements AttemptInstrument {
  readonly #batch: DispatchSpanScope;
  readonly #info: AttemptStartInfo;
  readonly #beganAt: number;
  #span: Span | undefined;
  #startedAt = 0;
  #running = false;
  #ended = false;

  constructor(batch: DispatchSpanScope, info: AttemptStartInfo) {
    this.#batch = batch;
    this.#info = info;
    this.#beganAt = batch.clock.now();
  }

  granted(info: AttemptGrantInfo): void {
    if (this.#span !== undefined || this.#ended) return;
    const { metrics } = this.#batch.settings;
    const waits: Attributes = {
      [ATTR_TOOLWAVES_CALL_KEY_WAIT_MS]: info.keyWaitMs,
      [ATTR_TOOLWAVES_CALL_FLEET_WAIT_MS]: info.fleetWaitMs,
      ...(info.fencingToken === undefined
        ? {}
        : { [ATTR_TOOLWAVES_CALL_FENCING_TOKEN]: info.fencingToken }),
    };
    this.#open(this.#batch.clock.now(), waits, this.#batch.linksTo(this.#info.waitedFor));
    this.#running = true;
    const tool = this.#metricAttributes();
    metrics.inFlight.add(1, tool);
    metrics.waitDuration.record(info.keyWaitMs / 1000, {
      ...tool,
      [ATTR_TOOLWAVES_WAIT_KIND]: 'keys',
    });
    if (info.fleetWaitMs > 0 || info.fencingToken !== undefined) {
      metrics.waitDuration.record(info.fleetWaitMs / 1000, {
        ...tool,
        [ATTR_TOOLWAVES_WAIT_KIND]: 'fleet',
      });
    }
  }

  run<T>(fn: () => T): T {
    const span = this.#span ?? this.#open(this.#batch.clock.now(), {}, []);
    return context.with(trace.setSpan(this.#batch.context, span), fn);
  }

  end(info: AttemptEndInfo): void {
    if (this.#ended) return;
    this.#ended = true;
    const span =
      this.#span ?? this.#open(this.#beganAt, {}, this.#batch.linksTo(this.#info.waitedFor));
    const errorType =
      info.outcome === 'cancelled'
        ? CANCELLED
        : info.outcome === 'error'
          ? (info.errorKind ?? TOOL_ERROR)
          : undefined;
    span.setAttribute(ATTR_TOOLWAVES_CALL_OUTCOME, info.outcome);
    if (info.retried) span.setAttribute(ATTR_TOOLWAVES_CALL_RETRIED, true);
    if (this.#batch.settings.recordResults && info.result !== undefined) {
      span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, info.result.content);
    }
    if (errorType !== undefined) {
      span.setAttribute(ATTR_ERROR_TYPE, errorType);
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
    }
    const endedAt = Math.max(this.#batch.clock.now(), this.#startedAt);
    span.end(this.#batch.clock.hrTime(endedAt));
    this.#batch.remember(this.#info.toolCallId, span);

    const { metrics } = this.#batch.settings;
    const tool = this.#metricAttributes();
    if (this.#running) metrics.inFlight.add(-1, tool);
    metrics.executeDuration.record(
      (endedAt - this.#startedAt) / 1000,
      errorType === undefined ? tool : { ...tool, [ATTR_ERROR_TYPE]: errorType },
    );
  }

  #open(startedAt: number, attributes: Attributes, links: Link[]): Span {
    const info = this.#info;
    const { tracer, recordArguments } = this.#batch.settings;
    this.#startedAt = startedAt;
    this.#span = tracer.startSpan(
      executeToolSpanName(info.toolName),
      {
        kind: SpanKind.INTERNAL,
        startTime: this.#batch.clock.hrTime(startedAt),
        links,
        attributes: {
          [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_EXECUTE_TOOL,
          [ATTR_GEN_AI_TOOL_NAME]: info.toolName,
          [ATTR_GEN_AI_TOOL_CALL_ID]: info.toolCallId,
          [ATTR_GEN_AI_TOOL_TYPE]: GEN_AI_TOOL_TYPE_FUNCTION,
          ...(info.toolDescription === undefined
            ? {}
            : { [ATTR_GEN_AI_TOOL_DESCRIPTION]: info.toolDescription }),
          ...(recordArguments ? { [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: asJson(info.input) } : {}),
          [ATTR_TOOLWAVES_CALL_INDEX]: info.index,
          [ATTR_TOOLWAVES_CALL_ATTEMPT]: info.attempt,
          ...(info.waitedFor.length === 0
            ? {}
            : { [ATTR_TOOLWAVES_CALL_WAITED_FOR]: [...info.waitedFor] }),
          ...attributes,
        },
      },
      this.#batch.context,
    );
    return this.#span;
  }

  #metricAttributes(): Attributes {
    return {
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_EXECUTE_TOOL,
      [ATTR_GEN_AI_TOOL_NAME]: this.#info.toolName,
      [ATTR_GEN_AI_TOOL_TYPE]: GEN_AI_TOOL_TYPE_FUNCTION,
    };
  }
}

/** The input as JSON; something JSON cannot hold (a cycle, a bigint) as its `String`. */
function asJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
