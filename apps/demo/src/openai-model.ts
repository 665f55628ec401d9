import {
  type ToolCall,
  type ToolRegistry,
  type ToolResult,
  toOpenAIToolMessages,
  toOpenAITools,
  toolCallsFromOpenAIChatStream,
} from '@toolwaves/core';
import OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { Model, ModelTurn, TurnWriting } from './model.js';

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
  /** Clock for the turn's writing times. Default `performance.now`. */
  readonly now?: () => number;
  /** Stops the request in progress. */
  readonly signal?: AbortSignal;
}

/**
 * A real model through the official `openai` SDK (chat completions, streamed), with the
 * registry's tools as function tools and parallel tool calls on. Each call is handed on the
 * moment its arguments are complete, while the model writes the rest of its turn. Arguments
 * that are not valid JSON still get an answer (a soft error), so the provider never sees a call
 * without its result.
 */
export class OpenAIModel implements Model {
  readonly label: string;
  readonly #client: OpenAI;
  readonly #options: OpenAIModelOptions;
  readonly #now: () => number;
  readonly #messages: ChatCompletionMessageParam[];
  #turns = 0;

  constructor(options: OpenAIModelOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
    this.label = `${options.model} via ${options.baseURL ?? 'api.openai.com'} (streamed)`;
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
    const writing: TurnWriting = {
      text: undefined,
      startedAt: this.#now(),
      firstCallTokenAt: undefined,
      endedAt: undefined,
    };
    if (this.#turns >= (this.#options.maxTurns ?? 12)) {
      writing.text = `(stopped after ${this.#turns} turns)`;
      writing.endedAt = writing.startedAt;
      return { calls: noCalls(), writing };
    }
    this.#turns += 1;
    const stream = await this.#client.chat.completions.create(
      {
        model: this.#options.model,
        messages: this.#messages,
        tools: toOpenAITools(this.#options.registry),
        parallel_tool_calls: true,
        stream: true,
      },
      this.#options.signal === undefined ? {} : { signal: this.#options.signal },
    );
    const { events, calls } = toolCallsFromOpenAIChatStream(stream);
    const reading = this.#read(events, writing);
    return { calls: this.#handOn(calls, reading), writing };
  }

  /** Yields the calls as they complete, and records the turn once the stream is read. */
  async *#handOn(calls: AsyncIterable<ToolCall>, reading: Promise<void>): AsyncGenerator<ToolCall> {
    // The events are read alongside: a failure there surfaces once the calls are out.
    reading.catch(() => {});
    yield* calls;
    await reading;
  }

  /** Reads every chunk: the text, the first tool-call token, and the assistant message. */
  async #read(events: AsyncIterable<ChatCompletionChunk>, writing: TurnWriting): Promise<void> {
    let text = '';
    const toolCalls: ChatCompletionMessageFunctionToolCall[] = [];
    for await (const chunk of events) {
      const delta = chunk.choices[0]?.delta;
      if (delta === undefined) continue;
      if (delta.content) {
        text += delta.content;
        writing.text = text;
      }
      for (const piece of delta.tool_calls ?? []) {
        writing.firstCallTokenAt ??= this.#now();
        toolCalls[piece.index] ??= {
          id: '',
          type: 'function',
          function: { name: '', arguments: '' },
        };
        const call = toolCalls[piece.index] as ChatCompletionMessageFunctionToolCall;
        if (piece.id) call.id = piece.id;
        if (piece.function?.name) call.function.name = piece.function.name;
        call.function.arguments += piece.function?.arguments ?? '';
      }
    }
    writing.endedAt = this.#now();
    const answered = toolCalls.filter((call) => call !== undefined);
    this.#messages.push({
      role: 'assistant',
      content: text === '' ? null : text,
      ...(answered.length === 0 ? {} : { tool_calls: answered }),
    });
  }
}

async function* noCalls(): AsyncGenerator<ToolCall> {}
