import { type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { Command, LangGraphRunnableConfig } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { StepTurns, type TurnSource, takeWaitForPrevious } from '@toolwaves/core';
import { checkOptions, type OptionRule, optionRules } from '@toolwaves/core/internal';
import { invalidOptions } from './langchain-adapter-error.js';
import { runLangChainToolCall } from './run-langchain-tool-call.js';

/** Options of {@link ToolwavesToolNode}: `ToolNode`'s, and the dispatcher. */
export type ToolwavesToolNodeOptions = NonNullable<ConstructorParameters<typeof ToolNode>[1]> & {
  /** The `Dispatcher` that decides when each call starts (its registry holds the declarations). */
  readonly dispatcher: TurnSource;
  /**
   * The model was given `wait_for_previous` (e.g. `toolJsonSchema(tool, { modelOrdering: true })`):
   * taken out of each call's arguments before its tool runs, and `true` makes the call start
   * after every call its message wrote before it has ended. Default: the dispatcher's own.
   */
  readonly modelOrdering?: boolean | undefined;
};

/** What each option must be: `dispatcher`, and those of LangGraph's `ToolNode`. */
const TOOL_NODE_RULES: Readonly<Record<keyof ToolwavesToolNodeOptions, OptionRule<unknown>>> = {
  dispatcher: optionRules.dispatcher,
  modelOrdering: optionRules.boolean,
  name: optionRules.string,
  tags: optionRules.arrayOf('an array of strings', optionRules.string),
  handleToolErrors: optionRules.boolean,
};

type ToolNodeCall = Parameters<ToolNode['runTool']>[0];

/**
 * LangGraph's `ToolNode`, with the calls of one `AIMessage` scheduled by toolwaves: a drop-in for
 * graphs built by hand. The node still runs each tool (and turns its errors into error
 * `ToolMessage`s, as `ToolNode` does); toolwaves decides when each may start, by the tools'
 * declarations in the dispatcher's registry. Works the same when each call arrives as its own
 * `Send`. Turns belong to one run (two runs with equal message ids never share one); a node
 * retried by its `retryPolicy` runs its calls again once the previous attempt's have settled; a
 * call the signal aborts while it waits is answered as `ToolNode` answers a tool its signal
 * stopped (an error `ToolMessage`, or the error without `handleToolErrors`).
 *
 * @example
 * ```ts
 * import { MessagesAnnotation, StateGraph } from '@langchain/langgraph';
 * import { ToolwavesToolNode } from '@toolwaves/langchain';
 *
 * const tools = new ToolwavesToolNode([readFile, editFile], { dispatcher });
 * const graph = new StateGraph(MessagesAnnotation)
 *   .addNode('agent', callModel)
 *   .addNode('tools', tools)
 *   .addEdge('__start__', 'agent')
 *   .addConditionalEdges('agent', toolsOrEnd)
 *   .addEdge('tools', 'agent')
 *   .compile();
 * ```
 * @throws LangChainAdapterError `invalid_options` when `dispatcher` cannot open turns, or for
 * an unknown option (with a "did you mean" for a near miss) or a missing options object.
 * @see toolwavesMiddleware for `createAgent`.
 */
// biome-ignore lint/suspicious/noExplicitAny: the state type, `any` by default as in `ToolNode`
export class ToolwavesToolNode<T = any> extends ToolNode<T> {
  readonly #turns: StepTurns;
  readonly #modelOrdering: boolean;

  constructor(tools: ConstructorParameters<typeof ToolNode>[0], options: ToolwavesToolNodeOptions) {
    checkOptions({
      subject: 'ToolwavesToolNode',
      options,
      rules: TOOL_NODE_RULES,
      required: ['dispatcher'],
      error: invalidOptions,
    });
    const { dispatcher, modelOrdering, ...toolNodeOptions } = options;
    super(tools, toolNodeOptions);
    this.#modelOrdering = modelOrdering ?? dispatcher.modelOrdering === true;
    this.#turns = new StepTurns({
      dispatcher,
      error: invalidOptions,
      modelOrdering: this.#modelOrdering,
    });
  }

  protected override runTool(
    call: ToolNodeCall,
    config: LangGraphRunnableConfig,
    state: unknown,
  ): Promise<ToolMessage | Command> {
    return runLangChainToolCall({
      turns: this.#turns,
      // in a graph, the signal is made afresh for each step of each run and shared by its tasks;
      // invoked alone without one, the node's config is the invocation's own
      run: config.signal ?? config,
      toolCall: call,
      messages: messagesOf(state),
      signal: config.signal,
      // The tool gets its own arguments: `wait_for_previous` is the dispatcher's (an edge).
      execute: () =>
        super.runTool(
          this.#modelOrdering
            ? { ...call, args: takeWaitForPrevious(call.args).input as typeof call.args }
            : call,
          config,
          state,
        ),
      aborted: (error) => this.#toolError(call, error),
    });
  }

  /**
   * `ToolNode`'s answer to a tool that threw `error`: an error `ToolMessage` when it handles tool
   * errors (the default), else the error itself.
   */
  #toolError(call: ToolNodeCall, error: Error): ToolMessage {
    if (!this.handleToolErrors) throw error;
    return new ToolMessage({
      status: 'error',
      content: `Error: ${error.message}\n Please fix your mistakes.`,
      name: call.name,
      tool_call_id: call.id ?? '',
    });
  }
}

/** The messages of the node's input: a list of messages, or a state with `messages`. */
function messagesOf(state: unknown): readonly BaseMessage[] | undefined {
  if (Array.isArray(state)) return state as BaseMessage[];
  const messages = (state as { readonly messages?: unknown } | undefined)?.messages;
  return Array.isArray(messages) ? (messages as BaseMessage[]) : undefined;
}
