import { StepTurns, type TurnSource } from '@toolwaves/core';
import { checkOptions, optionRules } from '@toolwaves/core/internal';
import { createMiddleware } from 'langchain';
import { invalidOptions } from './langchain-adapter-error.js';
import { runLangChainToolCall } from './run-langchain-tool-call.js';

/** Options of {@link toolwavesMiddleware}. */
export interface ToolwavesMiddlewareOptions {
  /**
   * The `Dispatcher` that decides when each call starts: its registry holds the tools'
   * declarations (`declareTool`, or the toolwaves tools themselves), by the LangChain tools' names.
   */
  readonly dispatcher: TurnSource;
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
    rules: { dispatcher: optionRules.dispatcher },
    required: ['dispatcher'],
    error: invalidOptions,
  });
  const turns = new StepTurns({ dispatcher: options.dispatcher, error: invalidOptions });
  return createMiddleware({
    name: 'ToolwavesMiddleware',
    wrapToolCall: (request, handler) =>
      runLangChainToolCall({
        turns,
        // the graph's signal is made afresh for each step of each run, and shared by its tasks
        run: request.runtime.signal ?? request.runtime.configurable ?? request.state,
        toolCall: request.toolCall,
        messages: request.state.messages,
        signal: request.runtime.signal,
        execute: async () => handler(request),
        // as a tool stopped by the signal: its error goes up through the middleware chain
        aborted: (error) => {
          throw error;
        },
      }),
  });
}
