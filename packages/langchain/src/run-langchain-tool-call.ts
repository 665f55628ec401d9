import type { BaseMessage } from '@langchain/core/messages';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { type Command, isGraphBubbleUp } from '@langchain/langgraph';
import type { StepTurns, ToolOutput } from '@toolwaves/core';

/** A tool call as LangChain holds it (`AIMessage.tool_calls`). */
export interface LangChainToolCallLike {
  readonly id?: string | undefined;
  readonly name: string;
  readonly args: unknown;
}

/** Options of {@link runLangChainToolCall}. */
export interface RunLangChainToolCallOptions<R extends ToolMessage | Command> {
  readonly turns: StepTurns;
  /**
   * The graph's run: what every call of one step of one run shares and no other run has (the
   * task's abort signal, which LangGraph makes afresh for each step of each run; the node's
   * config when it was invoked alone, without one).
   */
  readonly run: object;
  readonly toolCall: LangChainToolCallLike;
  /** The graph state's messages: the `AIMessage` holding the call names its step. */
  readonly messages: readonly BaseMessage[] | undefined;
  /** The graph's abort signal. */
  readonly signal: AbortSignal | undefined;
  /** Runs the call LangChain's way (the next handler, or the tool node's own `runTool`). */
  readonly execute: () => Promise<R>;
  /**
   * The answer to a call the graph's signal stopped while it waited (it never ran): what the
   * caller answers when a tool throws `error`, the error a LangChain tool rejects with when its
   * signal aborts.
   */
  readonly aborted: (error: Error) => R | ToolMessage;
}

/** Calls that name no step of their own (no `AIMessage` holds them) share this one. */
const NO_STEP = Symbol('no step');

/**
 * Runs one LangChain tool call through the turn of its step (the `AIMessage` that asked for it):
 * it starts once toolwaves lets it, LangChain's own handler runs it, and its answer comes back as
 * LangChain made it. A tool's error (an interrupt too) is rethrown as it is; a call toolwaves
 * answered without running it (invalid input, a hook blocked it) becomes a `ToolMessage` with
 * `status: 'error'`; a call the graph's signal stopped while it waited is answered by `aborted`.
 *
 * @see toolwavesMiddleware and ToolwavesToolNode, its two users.
 */
export async function runLangChainToolCall<R extends ToolMessage | Command>(
  options: RunLangChainToolCallOptions<R>,
): Promise<R | ToolMessage> {
  const { toolCall } = options;
  const id = toolCall.id ?? '';
  const outcome = await options.turns.run({
    run: options.run,
    step: stepOf(options.messages, id),
    call: { id, name: toolCall.name, input: toolCall.args },
    signal: options.signal,
    execute: options.execute,
    output: toolOutputOf,
    // an interrupt, a parent `Command`: LangGraph's control flow, handed back as it was thrown
    controlFlow: isGraphBubbleUp,
  });
  if (outcome.kind === 'ran') return outcome.value;
  if (outcome.kind === 'threw') throw outcome.error;
  if (outcome.kind === 'aborted') return options.aborted(abortError(outcome.reason));
  return new ToolMessage({
    content: outcome.result.content,
    tool_call_id: id,
    name: toolCall.name,
    status: 'error',
  });
}

/**
 * The last `AIMessage` asking for call `id`, by its id, or by its calls' ids when it has none
 * (each `Send` task may hold its own copy of the message).
 */
function stepOf(messages: readonly BaseMessage[] | undefined, id: string): unknown {
  for (let i = (messages?.length ?? 0) - 1; i >= 0; i -= 1) {
    const message = messages?.[i];
    if (AIMessage.isInstance(message) && message.tool_calls?.some((call) => call.id === id)) {
      return message.id ?? message.tool_calls.map((call) => call.id).join('\u0000');
    }
  }
  return NO_STEP;
}

/**
 * The error a LangChain tool rejects with when its signal aborts (`getAbortSignalError` of
 * `@langchain/core`): the reason when it is an error, else an error saying it.
 */
function abortError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  return new Error(typeof reason === 'string' ? reason : 'Aborted');
}

/** What toolwaves records of LangChain's answer: the message's text, an error when it says so. */
function toolOutputOf(answer: ToolMessage | Command): ToolOutput {
  if (!ToolMessage.isInstance(answer)) return { content: '(a LangGraph Command)' };
  const { content } = answer;
  return {
    content: typeof content === 'string' ? content : JSON.stringify(content),
    isError: answer.status === 'error',
  };
}
