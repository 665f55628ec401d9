import {
  field,
  list,
  type Trace,
  type TraceCall,
  type TraceRecord,
  type TraceTurn,
  text,
} from './trace.js';

/** A turn being read, and its calls by id (results come later). */
class TurnBook {
  readonly turns: { model?: string; calls: TraceCall[] }[] = [];
  readonly #byId = new Map<string, { calls: TraceCall[]; slot: number }>();

  open(model: string | undefined, calls: readonly TraceCall[]): void {
    if (calls.length === 0) return;
    const turn = { calls: [...calls], ...(model === undefined ? {} : { model }) };
    this.turns.push(turn);
    turn.calls.forEach((call, slot) => {
      this.#byId.set(call.id, { calls: turn.calls, slot });
    });
  }

  failed(id: string | undefined): void {
    const found = this.#byId.get(id ?? '');
    if (found !== undefined)
      found.calls[found.slot] = { ...found.calls[found.slot]!, isError: true };
  }

  trace(format: Trace['format'], skipped: readonly string[]): Trace {
    return { format, cwd: '/workspace', turns: this.turns as TraceTurn[], skipped };
  }
}

/** `function.arguments` is JSON text; a model may write it wrong, so keep the text then. */
function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * OpenAI Chat Completions messages (or `chat.completion` responses): each assistant message
 * with `tool_calls` is a turn. No error flag, no durations.
 */
export function parseOpenAiChat(
  records: readonly TraceRecord[],
  skipped: readonly string[],
  model?: string,
): Trace {
  const book = new TurnBook();
  for (const { value } of records) {
    const choices = list(value, 'choices');
    const messages =
      choices.length > 0 ? choices.map((choice) => field(choice, 'message')) : [value];
    for (const message of messages) {
      if (text(message, 'role') !== 'assistant') continue;
      const calls = list(message, 'tool_calls').map(
        (call, slot): TraceCall => ({
          id: text(call, 'id') ?? `call-${book.turns.length}-${slot}`,
          name: text(field(call, 'function'), 'name') ?? '(unnamed)',
          input: parseArguments(field(field(call, 'function'), 'arguments')),
          isError: false,
        }),
      );
      book.open(text(value, 'model') ?? model, calls);
    }
  }
  return book.trace('openai-chat', skipped);
}

/**
 * Anthropic Messages: each assistant message with `tool_use` blocks is a turn; `tool_result`
 * blocks with `is_error: true` mark errors. No durations.
 */
export function parseAnthropicMessages(
  records: readonly TraceRecord[],
  skipped: readonly string[],
  model?: string,
): Trace {
  const book = new TurnBook();
  for (const { value } of records) {
    const blocks = list(value, 'content');
    if (text(value, 'role') === 'assistant') {
      const calls = blocks
        .filter((block) => text(block, 'type') === 'tool_use')
        .map(
          (block, slot): TraceCall => ({
            id: text(block, 'id') ?? `toolu-${book.turns.length}-${slot}`,
            name: text(block, 'name') ?? '(unnamed)',
            input: field(block, 'input') ?? {},
            isError: false,
          }),
        );
      book.open(text(value, 'model') ?? model, calls);
    } else {
      for (const block of blocks) {
        if (text(block, 'type') === 'tool_result' && field(block, 'is_error') === true)
          book.failed(text(block, 'tool_use_id'));
      }
    }
  }
  return book.trace('anthropic-messages', skipped);
}

/**
 * AI SDK steps: each step with `toolCalls` is a turn (`input`, or `args` before AI SDK 5); a
 * `tool-error` part of its `content` marks an error; the model is `response.modelId`.
 */
export function parseAiSdkSteps(
  records: readonly TraceRecord[],
  skipped: readonly string[],
): Trace {
  const book = new TurnBook();
  for (const { value: step } of records) {
    const calls = list(step, 'toolCalls').map(
      (call, slot): TraceCall => ({
        id: text(call, 'toolCallId') ?? `call-${book.turns.length}-${slot}`,
        name: text(call, 'toolName') ?? '(unnamed)',
        input: field(call, 'input') ?? field(call, 'args') ?? {},
        isError: false,
      }),
    );
    book.open(text(field(step, 'response'), 'modelId'), calls);
    for (const part of list(step, 'content')) {
      if (text(part, 'type') === 'tool-error') book.failed(text(part, 'toolCallId'));
    }
  }
  return book.trace('ai-sdk-steps', skipped);
}
