import type { ToolCall, ToolResult } from '@toolwaves/core';
import type { FinishReason, LanguageModelUsage, ModelMessage } from 'ai';

/** One step of {@link runToolLoop}: a model call and the dispatch of its tool calls. */
export interface ToolLoopStep {
  /** 0 for the first step. */
  readonly stepNumber: number;
  /** The text the model wrote in this step. */
  readonly text: string;
  /** Why the model stopped: `tool-calls` when it asked for tools. */
  readonly finishReason: FinishReason;
  readonly usage: LanguageModelUsage;
  /** The calls the model asked for, in its order. */
  readonly calls: readonly ToolCall[];
  /** One result per call, in the same order. */
  readonly results: readonly ToolResult[];
  /** What the step added to the conversation: the model's response, then the tool results. */
  readonly messages: readonly ModelMessage[];
}

/** What {@link runToolLoop} resolves with. */
export interface ToolLoopResult {
  /** The text of the last step: the answer, unless the loop stopped at `maxSteps`. */
  readonly text: string;
  /** Of the last step; `tool-calls` means the loop stopped at `maxSteps`, not on an answer. */
  readonly finishReason: FinishReason;
  readonly steps: readonly ToolLoopStep[];
  /** The whole conversation: the messages given (or the prompt), then every step's messages. */
  readonly messages: readonly ModelMessage[];
  /** Only what the loop added: every step's messages. */
  readonly responseMessages: readonly ModelMessage[];
}
