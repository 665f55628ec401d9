import { writeFile } from 'node:fs/promises';
import { context, type Span, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { Instrumentation } from '@toolwaves/core';
import { openTelemetry } from '@toolwaves/otel';
import { formatSpanTree } from './span-tree.js';

/** Options of {@link TurnTrace.report}. */
export interface TurnTraceReportOptions {
  /** Write the spans there as OTLP JSON (what an OTLP/HTTP exporter sends); else print the tree. */
  readonly file?: string | undefined;
  readonly say: (line: string) => void;
  /** The live view's name of each call, by its id, for the printed tree. */
  readonly labels?: ReadonlyMap<string, string>;
}

/** The `service.name` of the demo's spans, as a trace viewer lists it. */
export const DEMO_SERVICE_NAME = 'toolwaves-demo';

/**
 * `--trace` of the demo: the real OpenTelemetry SDK in memory, the Dispatcher instrumented with
 * `@toolwaves/otel`, the session under one root span; at the end the spans as a tree (with each
 * call's wait and run) or as an OTLP JSON file a trace viewer can open.
 *
 * @example
 * ```ts
 * const tracing = new TurnTrace();
 * const dispatcher = new Dispatcher({ registry, instrumentation: tracing.instrumentation });
 * await tracing.within(() => runAgentLoop({ model, dispatcher }));
 * await tracing.report({ say: console.log });
 * ```
 */
export class TurnTrace {
  readonly instrumentation: Instrumentation;
  readonly #exporter = new InMemorySpanExporter();
  readonly #provider: BasicTracerProvider;
  readonly #session: Span;

  constructor() {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    this.#provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': DEMO_SERVICE_NAME }),
      spanProcessors: [new SimpleSpanProcessor(this.#exporter)],
    });
    this.instrumentation = openTelemetry({ tracerProvider: this.#provider });
    this.#session = this.#provider.getTracer('@toolwaves/demo').startSpan('demo session');
  }

  /** Runs `fn` under the session's span: its dispatches become the span's children. */
  within<T>(fn: () => T): T {
    return context.with(trace.setSpan(context.active(), this.#session), fn);
  }

  /** Ends the session's span, then prints the tree or writes the file. */
  async report(options: TurnTraceReportOptions): Promise<void> {
    this.#session.end();
    const spans = this.#exporter.getFinishedSpans();
    if (options.file === undefined) {
      options.say('');
      options.say('Trace (OpenTelemetry spans; ░ waiting, █ running, over each dispatch)');
      const tree = formatSpanTree({
        spans,
        ...(options.labels === undefined ? {} : { labels: options.labels }),
      });
      for (const line of tree) options.say(line);
    } else {
      await writeFile(
        options.file,
        JsonTraceSerializer.serializeRequest(spans) ?? new Uint8Array(),
      );
      options.say(`trace: ${spans.length} spans written to ${options.file} (OTLP JSON)`);
    }
    await this.#provider.shutdown();
    context.disable();
  }
}
