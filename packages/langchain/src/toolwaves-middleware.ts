import { StepTurns, type TurnSource, takeWaitForPrevious } from '@toolwaves/core';
import { checkOptions, optionRules } from '@toolwaves/core/internal';
import { createMiddleware } from 'langchain';
import { invalidOptions } from './langchain-adapter-error.js';
import { runLangChainToolCall } from './run-langchain-tool-call.js';
import { withWaitForPreviousTools } from './wait-for-previous-tools.js';

/** Options of {@link toolwavesMiddleware}. */
export interface ToolwavesMiddlewareOptions {
  /**
   * The `Dispatcher` that decides when each call starts: its registry holds the tools'
   * declarations (`declareTool`, or the toolwaves tools themselves), by the LangChain tools' names.
   */
  readonly dispatcher: TurnSource;
  /**
   * Give the model the optional boolean `wait_for_previous` on every tool: a call that sets it
   * `true` starts only after every call the model wrote before it in the same response has
   * ended; the tool never sees the field. Default: the dispatcher's own `modelOrdering`.
   */
  readonly modelOrdering?: boolean | undefined;
}

/**
 * A `createAgent` middleware that lets toolwaves decide when each tool call starts: the calls of
 * one model response go into one turn of the dispatcher, in the order LangChain starts them, and
 * each starts as soon as the earlier calls it conflicts with have ended (two edits of one file
 * never overlap; a read of another file runs beside them). LangChain still runs every tool
 * (through the inner middleware and its tool node) and gets each answer as it made it; a tool's
 * error reaches LangChain unchanged (an interrupt too); the graph's abort signal answers the
 * calls still waiting as LangChain answers a tool its signal stopped, without running them.
 * Turns belong to one run: two runs whose messages carry equal ids never share one, and a call
 * seen again (a retry) runs once the previous attempt's calls have settled. Put it first in
 * `middleware` so that it sees every call.
 *
 * @example
 * ```ts
 * import { createAgent } from 'langchain';
 * import { declareTool, ToolRegistry } from '@toolwaves/core';
 * import { Dispatcher } from '@toolwaves/executor-rx';
 * import { toolwavesMiddleware } from '@toolwaves/langchain';
 *
 * const registry = new ToolRegistry().add(
 *   declareTool({ name: 'search', concurrencySafe: true }),
 * );
 * const agent = createAgent({
 *   model: 'openai:gpt-5',
 *   tools: [search, editFile],
 *   middleware: [toolwavesMiddleware({ dispatcher: new Dispatcher({ registry, mode: 'eager' }) })],
 * });
 * ```
 * @throws LangChainAdapterError `invalid_options` when `dispatcher` cannot open turns, or for
 * an unknown option (with a "did you mean" for a near miss) or a missing options object.
 * @see ToolwavesToolNode for a LangGraph graph built by hand.
 */
export function toolwavesMiddleware(options: ToolwavesMiddlewareOptions) {
  checkOptions({
    subject: 'toolwavesMiddleware',
    options,
    rules: { dispatcher: optionRules.dispatcher, modelOrdering: optionRules.boolean },
    required: ['dispatcher'],
    error: invalidOptions,
  });
  const modelOrdering = options.modelOrdering ?? options.dispatcher.modelOrdering === true;
  const turns = new StepTurns({
    dispatcher: options.dispatcher,
    error: invalidOptions,
    modelOrdering,
  });
  return createMiddleware({
    name: 'ToolwavesMiddleware',
    ...(modelOrdering
      ? {
          // The model reads the tools with `wait_for_previous`; the tool node runs the originals.
          wrapModelCall: (request, handler) =>
            handler({ ...request, tools: withWaitForPreviousTools(request.tools) }),
        }
      : {}),
    wrapToolCall: (request, handler) =>
      runLangChainToolCall({
        turns,
        // the graph's signal is made afresh for each step of each run, and shared by its tasks
        run: request.runtime.signal ?? request.runtime.configurable ?? request.state,
        toolCall: request.toolCall,
        messages: request.state.messages,
        signal: request.runtime.signal,
        // The tool gets its own arguments: `wait_for_previous` is the dispatcher's (an edge).
        execute: async () => handler(modelOrdering ? withoutWaitForPrevious(request) : request),
        // as a tool stopped by the signal: its error goes up through the middleware chain
        aborted: (error) => {
          throw error;
        },
      }),
  });
}

/** The request with `wait_for_previous` taken out of its call's arguments. */
function withoutWaitForPrevious<R extends { readonly toolCall: { readonly args: unknown } }>(
  request: R,
): R {
  const args = takeWaitForPrevious(request.toolCall.args).input;
  return { ...request, toolCall: { ...request.toolCall, args } };
}
