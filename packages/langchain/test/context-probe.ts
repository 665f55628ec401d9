import { AsyncLocalStorage } from 'node:async_hooks';
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { StructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import { getCurrentTaskInput } from '@langchain/langgraph';
import { z } from 'zod';

/** A request-scoped value: the run that asked (set around `invoke` by the test). */
export const requestScope = new AsyncLocalStorage<string>();
/** A per-call value, as a platform's logging middleware sets it around each tool call. */
export const callScope = new AsyncLocalStorage<string>();

/** What a probe read of its async context when it started. */
export interface ContextReading {
  /** The call's own id (given explicitly by LangChain, not read from the async context). */
  readonly callId: string;
  readonly request: string | undefined;
  readonly call: string | undefined;
  /** The call id of the LangGraph task whose input `getCurrentTaskInput()` returns (`Send`). */
  readonly taskCall: string | undefined;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A class-based LangChain tool that does not pass its config on: what it knows of its run, it
 * reads from the async context (LangGraph's config through `getCurrentTaskInput()`, and the two
 * scopes above). It answers `request:path` after a few turns of the event loop, so that calls
 * beyond the cap start when another call ends, in that call's completion.
 */
export class ProbeTool extends StructuredTool {
  readonly name: string;
  readonly description = 'Reads its async context';
  readonly schema = z.object({ path: z.string() });
  readonly #readings: ContextReading[];

  constructor(options: { readonly name: string; readonly readings: ContextReading[] }) {
    super();
    this.name = options.name;
    this.#readings = options.readings;
  }

  protected override async _call(
    input: { path: string },
    _runManager: unknown,
    config?: ToolRunnableConfig,
  ): Promise<string> {
    this.#readings.push({
      callId: config?.toolCall?.id ?? '',
      request: requestScope.getStore(),
      call: callScope.getStore(),
      taskCall: taskCallId(),
    });
    for (let i = 0; i < 3; i += 1) await tick();
    return `${requestScope.getStore()}:${input.path}`;
  }
}

function taskCallId(): string | undefined {
  try {
    const input = getCurrentTaskInput() as { readonly lg_tool_call?: { readonly id?: string } };
    return input?.lg_tool_call?.id;
  } catch {
    return undefined; // outside a graph task
  }
}

/** `count` calls of `tool`, ids `c0`…, on path `path(i)`. */
export function probeCalls(options: {
  readonly tool: string;
  readonly count: number;
  readonly path: (index: number) => string;
}) {
  return Array.from({ length: options.count }, (_, i) => ({
    id: `c${i}`,
    name: options.tool,
    args: { path: options.path(i) },
  }));
}

/**
 * A fake chat model for any number of runs at once: each time it is asked, it asks for `calls`
 * unless the conversation ends in tool answers, then it says "Done.".
 */
export function callingModel(options: {
  readonly calls: readonly { id: string; name: string; args: Record<string, unknown> }[];
  readonly runs: number;
  readonly messageId?: string;
}) {
  const model = fakeModel();
  for (let i = 0; i < options.runs * 2; i += 1) {
    model.respond((messages: BaseMessage[]) =>
      ToolMessage.isInstance(messages.at(-1))
        ? new AIMessage('Done.')
        : new AIMessage({
            content: '',
            ...(options.messageId === undefined ? {} : { id: options.messageId }),
            tool_calls: options.calls.map((call) => ({ ...call, args: { ...call.args } })),
          }),
    );
  }
  return model;
}

/** The tool answers in a graph's final messages, as `[tool_call_id, status, content]`. */
export function toolAnswers(messages: readonly BaseMessage[]): [string, string, string][] {
  return messages
    .filter((message) => ToolMessage.isInstance(message))
    .map((message) => [
      message.tool_call_id,
      message.status ?? 'success',
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    ]);
}

/**
 * Turns the event loop until `condition()` holds (at most `turns` times), for a state reached
 * through real timers of 0 ms (LangGraph's retry back-off) or callbacks: no wall-clock wait.
 */
export async function until(condition: () => boolean, turns = 100_000): Promise<void> {
  for (let i = 0; i < turns; i += 1) {
    if (condition()) return;
    await tick();
  }
  throw new Error(`the condition did not hold after ${turns} turns of the event loop`);
}
