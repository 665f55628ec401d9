import { MalformedArguments, type ToolCall } from '@toolwaves/core';

/**
 * A tool call as the AI SDK reports it (`result.toolCalls`, `step.toolCalls`, or the awaited
 * `toolCalls` of `streamText`): typed and dynamic calls alike.
 */
export interface AiSdkToolCallLike {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The parsed input; for an invalid call whose arguments were not JSON, the raw text. */
  readonly input: unknown;
  /** Set by the AI SDK when it could not parse the call (bad JSON, unknown tool). */
  readonly invalid?: boolean | undefined;
  /** Run by the provider: it already has its answer. */
  readonly providerExecuted?: boolean | undefined;
}

/**
 * The calls of an AI SDK step as toolwaves calls, in order. Calls the provider ran itself are
 * left out (they are answered already). A call whose arguments were not valid JSON becomes a
 * {@link MalformedArguments} input, which the dispatcher answers with a soft error saying so;
 * a call to a tool the registry does not know keeps its name, and the dispatcher answers it with
 * the names it does know.
 *
 * @example
 * ```ts
 * const results = await dispatcher.dispatch(fromAiSdkToolCalls(result.toolCalls));
 * ```
 */
export function fromAiSdkToolCalls(toolCalls: readonly AiSdkToolCallLike[]): ToolCall[] {
  return toolCalls
    .filter((call) => call.providerExecuted !== true)
    .map((call) => ({
      id: call.toolCallId,
      name: call.toolName,
      input: call.invalid === true ? unparsed(call.input) : call.input,
    }));
}

/** For an invalid call, a string input is the raw text the AI SDK could not parse. */
function unparsed(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  const reparsed = MalformedArguments.parse(input);
  return reparsed instanceof MalformedArguments ? reparsed : input;
}
