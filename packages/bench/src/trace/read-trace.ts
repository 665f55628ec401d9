import { parseClaudeCode } from './parse-claude-code.js';
import {
  field,
  list,
  type Trace,
  type TraceCall,
  type TraceFormat,
  type TraceRecord,
  type TraceTurn,
  text,
  traceError,
} from './trace.js';

/** How a message format shows its turns: the raw calls of each, how to read one, and errors. */
interface MessageFormat {
  /** The raw tool calls of each turn a record holds. */
  turns(value: unknown): (readonly unknown[])[];
  call(raw: unknown): { id?: string | undefined; name?: string | undefined; input: unknown };
  /** Ids of the calls a record marks as failed. */
  failed(value: unknown): (string | undefined)[];
  model(value: unknown): string | undefined;
}

const assistant = (message: unknown) => text(message, 'role') === 'assistant';
const blocksOf = (value: unknown, type: string) =>
  list(value, 'content').filter((block) => text(block, 'type') === type);
const messagesOf = (value: unknown) =>
  list(value, 'choices').length > 0
    ? list(value, 'choices').map((choice) => field(choice, 'message'))
    : [value];

/** `function.arguments` is JSON text; a model may write it wrong, so keep the text then. */
function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The message formats: OpenAI chat, Anthropic Messages, AI SDK steps. */
const MESSAGE_FORMATS: Record<Exclude<TraceFormat, 'claude-code'>, MessageFormat> = {
  'openai-chat': {
    turns: (value) =>
      messagesOf(value)
        .filter(assistant)
        .map((m) => list(m, 'tool_calls')),
    call: (raw) => ({
      id: text(raw, 'id'),
      name: text(field(raw, 'function'), 'name'),
      input: parseArguments(field(field(raw, 'function'), 'arguments')),
    }),
    failed: () => [],
    model: (value) => text(value, 'model'),
  },
  'anthropic-messages': {
    turns: (value) => (assistant(value) ? [blocksOf(value, 'tool_use')] : []),
    call: (raw) => ({ id: text(raw, 'id'), name: text(raw, 'name'), input: field(raw, 'input') }),
    failed: (value) =>
      assistant(value)
        ? []
        : blocksOf(value, 'tool_result')
            .filter((block) => field(block, 'is_error') === true)
            .map((block) => text(block, 'tool_use_id')),
    model: (value) => text(value, 'model'),
  },
  'ai-sdk-steps': {
    turns: (step) => [list(step, 'toolCalls')],
    call: (raw) => ({
      id: text(raw, 'toolCallId'),
      name: text(raw, 'toolName'),
      input: field(raw, 'input') ?? field(raw, 'args'),
    }),
    failed: (step) => blocksOf(step, 'tool-error').map((part) => text(part, 'toolCallId')),
    model: (step) => text(field(step, 'response'), 'modelId'),
  },
};

/** Reads the turns of a message format, one table-driven pass: a turn per message with calls. */
function readMessages(
  format: keyof typeof MESSAGE_FORMATS,
  records: readonly TraceRecord[],
  model: string | undefined,
): TraceTurn[] {
  const reader = MESSAGE_FORMATS[format];
  const turns: { model?: string; calls: TraceCall[] }[] = [];
  const byId = new Map<string, { calls: TraceCall[]; slot: number }>();
  for (const { value } of records) {
    for (const raw of reader.turns(value)) {
      const calls = raw.map((entry, slot): TraceCall => {
        const { id, name, input } = reader.call(entry);
        const callId = id ?? `call-${turns.length}-${slot}`;
        return { id: callId, name: name ?? '(unnamed)', input: input ?? {}, isError: false };
      });
      for (const [slot, call] of calls.entries()) byId.set(call.id, { calls, slot });
      const named = reader.model(value) ?? model;
      if (calls.length > 0) turns.push({ calls, ...(named === undefined ? {} : { model: named }) });
    }
    for (const id of reader.failed(value)) {
      const found = byId.get(id ?? '');
      if (found !== undefined)
        found.calls[found.slot] = { ...found.calls[found.slot]!, isError: true };
    }
  }
  return turns;
}

/** Which format a record shows, if any: the first test it passes, in this order. */
const DETECT: readonly [TraceFormat, (value: unknown) => boolean][] = [
  ['ai-sdk-steps', (value) => Array.isArray(field(value, 'toolCalls'))],
  [
    'claude-code',
    (value) =>
      ['system', 'assistant', 'user', 'result'].includes(text(value, 'type') ?? '') &&
      (field(value, 'session_id') !== undefined || field(value, 'message') !== undefined),
  ],
  [
    'openai-chat',
    (value) => {
      const message = messagesOf(value)[0];
      return Array.isArray(field(message, 'tool_calls')) || text(message, 'role') === 'tool';
    },
  ],
  [
    'anthropic-messages',
    (value) =>
      text(value, 'role') !== undefined &&
      (blocksOf(value, 'tool_use').length > 0 || blocksOf(value, 'tool_result').length > 0),
  ],
];

/** The records of a transcript: the elements of one JSON document, or one per JSON line. */
function recordsOf(content: string): { records: TraceRecord[]; skipped: string[]; model?: string } {
  let document: unknown;
  try {
    document = JSON.parse(content);
  } catch {
    // Not one document: JSON lines.
    const records: TraceRecord[] = [];
    const skipped: string[] = [];
    content.split(/\r?\n/).forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        records.push({ where: `line ${index + 1}`, value: JSON.parse(line) });
      } catch (error) {
        skipped.push(
          `line ${index + 1}: not JSON (${error instanceof Error ? error.message : String(error)})`,
        );
      }
    });
    return { records, skipped };
  }
  const model = text(document, 'model');
  const elements = Array.isArray(document)
    ? document
    : [field(document, 'messages'), field(document, 'steps'), [document]].find(Array.isArray)!;
  return {
    records: elements.map((value, index) => ({
      // One JSON value on its own (a one-line file) is line 1; a list's items are elements.
      where: elements[0] === document ? 'line 1' : `element ${index + 1}`,
      value,
    })),
    skipped: [],
    ...(model === undefined ? {} : { model }),
  };
}

/**
 * Reads a transcript, its format detected from the content: Claude Code `stream-json` events
 * (or session `.jsonl`), OpenAI Chat Completions messages (`tool_calls`), Anthropic Messages
 * (`tool_use` blocks) or AI SDK steps (`toolCalls`), as one JSON document or JSON lines. The
 * first record that shows a format decides it; lines that are not JSON are skipped and listed
 * in `skipped` (a transcript cut mid-line still reads).
 *
 * @throws {BenchError} `invalid_trace` naming the first line when no record shows a known
 * format, or the line of a record the format cannot read.
 * @example readTrace(await readFile('session.jsonl', 'utf8')).turns.length;
 * @see parseClaudeCode
 */
export function readTrace(content: string): Trace {
  const { records, skipped, model } = recordsOf(content);
  const format = records
    .map((record) => DETECT.find(([, shows]) => shows(record.value))?.[0])
    .find((found) => found !== undefined);
  if (format === 'claude-code') return parseClaudeCode(records, skipped);
  if (format === undefined) {
    const first = records[0];
    throw traceError({
      where: first?.where ?? 'line 1',
      expected:
        'a Claude Code stream-json event (`type` system, assistant, user or result), an OpenAI chat message with `tool_calls`, an Anthropic message with `tool_use` blocks, or an AI SDK step with `toolCalls`',
      got:
        first === undefined
          ? 'an empty file'
          : `${JSON.stringify(first.value).slice(0, 120)}${skipped.length > 0 ? ` (${skipped[0]})` : ''}`,
    });
  }
  return { format, cwd: '/workspace', turns: readMessages(format, records, model), skipped };
}
