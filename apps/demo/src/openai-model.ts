import {
  fromOpenAIToolCalls,
  type OpenAIToolCall,
  type ToolRegistry,
  type ToolResult,
  toOpenAIToolMessages,
  toOpenAITools,
} from '@toolwaves/core';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Model, ModelTurn } from './model.js';

/** Options of {@link OpenAIModel}. */
export interface OpenAIModelOptions {
  readonly apiKey: string;
  /** An OpenAI-compatible server, e.g. a local one. */
  readonly baseURL?: string | undefined;
  readonly model: string;
  readonly registry: ToolRegistry;
  /** What the user asks the agent to do. */
  readonly task: string;
  /** Most turns before the loop stops asking. */
  readonly maxTurns?: number;
}

/**
 * A real model through the official `openai` SDK (chat completions), with the registry's tools
 * as function tools and parallel tool calls on. Arguments that are not valid JSON still get an
 * answer (a soft error), so the provider never sees a call without its result.
 */
export class OpenAIModel implements Model {
  readonly label: string;
  readonly #client: OpenAI;
  readonly #options: OpenAIModelOptions;
  readonly #messages: ChatCompletionMessageParam[];
  #turns = 0;

  constructor(options: OpenAIModelOptions) {
    this.#options = options;
    this.label = `${options.model} via ${options.baseURL ?? 'api.openai.com'}`;
    this.#client = new OpenAI({
      apiKey: options.apiKey,
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      maxRetries: 1,
    });
    this.#messages = [
      {
        role: 'system',
        content:
          'You are a coding agent working in a sandboxed workspace through tools. Call several tools in one turn when they are independent.',
      },
      { role: 'user', content: options.task },
    ];
  }

  async next(previous: readonly ToolResult[]): Promise<ModelTurn> {
    for (const message of toOpenAIToolMessages(previous)) this.#messages.push(message);
    if (this.#turns >= (this.#options.maxTurns ?? 12)) {
      return { calls: [], text: `(stopped after ${this.#turns} turns)` };
    }
    this.#turns += 1;
    const completion = await this.#client.chat.completions.create({
      model: this.#options.model,
      messages: this.#messages,
      tools: toOpenAITools(this.#options.registry),
      parallel_tool_calls: true,
    });
    const message = completion.choices[0]?.message;
    if (message === undefined) return { calls: [], text: '(the model sent no message)' };
    const toolCalls = (message.tool_calls ?? []).filter(
      (call): call is typeof call & OpenAIToolCall => call.type === 'function',
    );
    this.#messages.push({
      role: 'assistant',
      content: message.content,
      ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
    });
    return {
      calls: fromOpenAIToolCalls(toolCalls),
      ...(message.content ? { text: message.content } : {}),
    };
  }
}
