import { BenchError } from '../bench-error.js';
import { parseClaudeCode } from './parse-claude-code.js';
import {
  parseAiSdkSteps,
  parseAnthropicMessages,
  parseOpenAiChat,
} from './parse-message-formats.js';
import { field, list, type Trace, type TraceFormat, type TraceRecord, text } from './trace.js';

const CLAUDE_CODE_TYPES = new Set(['system', 'assistant', 'user', 'result']);

/** Which format a record shows, if it shows one. */
function formatOf(value: unknown): TraceFormat | undefined {
  if (Array.isArray(field(value, 'toolCalls'))) return 'ai-sdk-steps';
  const type = text(value, 'type');
  if (
    type !== undefined &&
    CLAUDE_CODE_TYPES.has(type) &&
    (field(value, 'session_id') !== undefined || field(value, 'message') !== undefined)
  ) {
    return 'claude-code';
  }
  const message =
    list(value, 'choices').length > 0 ? field(list(value, 'choices')[0], 'message') : value;
  if (Array.isArray(field(message, 'tool_calls')) || text(message, 'role') === 'tool')
    return 'openai-chat';
  const blocks = list(value, 'content').map((block) => text(block, 'type'));
  if (
    text(value, 'role') !== undefined &&
    blocks.some((type) => type === 'tool_use' || type === 'tool_result')
  )
    return 'anthropic-messages';
  return undefined;
}

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
    : Array.isArray(field(document, 'messages'))
      ? list(document, 'messages')
      : Array.isArray(field(document, 'steps'))
        ? list(document, 'steps')
        : [document];
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
    .map((record) => formatOf(record.value))
    .find((found) => found !== undefined);
  switch (format) {
    case 'claude-code':
      return parseClaudeCode(records, skipped);
    case 'openai-chat':
      return parseOpenAiChat(records, skipped, model);
    case 'anthropic-messages':
      return parseAnthropicMessages(records, skipped, model);
    case 'ai-sdk-steps':
      return parseAiSdkSteps(records, skipped);
    case undefined: {
      const first = records[0];
      throw new BenchError({
        code: 'invalid_trace',
        message: `${first?.where ?? 'line 1'}: expected a Claude Code stream-json event (\`type\` system, assistant, user or result), an OpenAI chat message with \`tool_calls\`, an Anthropic message with \`tool_use\` blocks, or an AI SDK step with \`toolCalls\`, got ${first === undefined ? 'an empty file' : JSON.stringify(first.value).slice(0, 120)}${skipped.length > 0 ? ` (${skipped[0]})` : ''}`,
      });
    }
  }
}
