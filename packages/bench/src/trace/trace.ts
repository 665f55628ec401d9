import { BenchError } from '../bench-error.js';

/** The transcript formats `--trace` reads. */
export type TraceFormat = 'claude-code' | 'openai-chat' | 'anthropic-messages' | 'ai-sdk-steps';

/** One tool call of a transcript. */
export interface TraceCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as the model wrote them (an object, or the raw text when it was not JSON). */
  readonly input: unknown;
  /** How long it ran, when the transcript says so (ms). */
  readonly durationMs?: number;
  /** Its result was an error. */
  readonly isError: boolean;
}

/** One model turn that asked for tools: the calls of one assistant message, in order. */
export interface TraceTurn {
  /** The model that wrote it, when the transcript names it. */
  readonly model?: string;
  /** A sub-agent's turn: the id of the call that started the sub-agent. */
  readonly parentCallId?: string;
  readonly calls: readonly TraceCall[];
}

/** A transcript, read. */
export interface Trace {
  readonly format: TraceFormat;
  /** Where relative paths resolve (Claude Code's `init` event), or `/workspace`. */
  readonly cwd: string;
  readonly turns: readonly TraceTurn[];
  /** Lines that were not JSON (a truncated last line, a log line), skipped: where and why. */
  readonly skipped: readonly string[];
}

/** One JSON value of a transcript and where it is (`line 7`, `element 3`). */
export interface TraceRecord {
  readonly where: string;
  readonly value: unknown;
}

/** Reads a property of an unknown value without trusting its shape. */
export function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

/** A string property, or undefined. */
export function text(value: unknown, name: string): string | undefined {
  const found = field(value, name);
  return typeof found === 'string' ? found : undefined;
}

/** An array property, or an empty array. */
export function list(value: unknown, name: string): readonly unknown[] {
  const found = field(value, name);
  return Array.isArray(found) ? found : [];
}

/** The one error of an unreadable transcript: where, what was expected, what was there. */
export function traceError(options: { where: string; expected: string; got: string }): BenchError {
  const { where, expected, got } = options;
  return new BenchError({
    code: 'invalid_trace',
    message: `${where}: expected ${expected}, got ${got}`,
  });
}
