import { ToolRegistry } from '@toolwaves/core';
import { MockTool } from '@toolwaves/core/testing';
import { simulateReadableStream } from 'ai';
import type { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type StreamResult = Awaited<ReturnType<MockLanguageModelV3['doStream']>>;
export type ModelPrompt = MockLanguageModelV3['doGenerateCalls'][number]['prompt'];

/** A tool call as a provider sends it: the arguments as JSON text. */
export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

const args = (input: unknown): string =>
  typeof input === 'string' ? input : JSON.stringify(input);

/** A model step that asks for tools (a string input is sent as it is: raw, maybe broken, JSON). */
export function callsStep(calls: readonly ScriptedCall[], text = ''): GenerateResult {
  return {
    content: [
      ...(text === '' ? [] : [{ type: 'text' as const, text }]),
      ...calls.map((call) => ({
        type: 'tool-call' as const,
        toolCallId: call.id,
        toolName: call.name,
        input: args(call.input),
      })),
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

/** A model step that answers with text. */
export function textStep(text: string): GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  };
}

/** The parts of a streamed step: stream start, the text, then the tool calls, then `finish`. */
function stepParts(calls: readonly ScriptedCall[], text: string) {
  return [
    { type: 'stream-start' as const, warnings: [] },
    { type: 'text-start' as const, id: 't' },
    { type: 'text-delta' as const, id: 't', delta: text },
    { type: 'text-end' as const, id: 't' },
    ...calls.map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.id,
      toolName: call.name,
      input: args(call.input),
    })),
    {
      type: 'finish' as const,
      finishReason: {
        unified: calls.length > 0 ? ('tool-calls' as const) : ('stop' as const),
        raw: undefined,
      },
      usage,
    },
  ];
}

/** The same as a stream: optional text, then the tool calls, then `finish`, all at once. */
export function streamedStep(calls: readonly ScriptedCall[], text: string): StreamResult {
  const parts = stepParts(calls, text);
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

/**
 * The same step written at a pace: its 4 + calls + 1 parts (stream start, text start, delta,
 * text end, each call, finish) arrive one every `chunkDelayMs` from 0 (`simulateReadableStream`,
 * `setTimeout`-driven, so fake timers drive it): the k-th part at k × `chunkDelayMs`.
 */
export function pacedStep(
  calls: readonly ScriptedCall[],
  text: string,
  options: { chunkDelayMs: number },
): StreamResult {
  return {
    stream: simulateReadableStream({
      chunks: stepParts(calls, text),
      initialDelayInMs: 0,
      chunkDelayInMs: options.chunkDelayMs,
    }),
  };
}

/** The step's parts, paced, until the provider reports `error` where `finish` would have come. */
export function brokenOffStep(
  calls: readonly ScriptedCall[],
  error: Error,
  options: { chunkDelayMs: number },
): StreamResult {
  return {
    stream: simulateReadableStream({
      chunks: [...stepParts(calls, '').slice(0, -1), { type: 'error' as const, error }],
      initialDelayInMs: 0,
      chunkDelayInMs: options.chunkDelayMs,
    }),
  };
}

/** A stream that reports a provider error after its first part. */
export function failingStep(error: Error): StreamResult {
  return {
    stream: new ReadableStream({
      start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        controller.enqueue({ type: 'error', error });
        controller.close();
      },
    }),
  };
}

/**
 * A small workspace: `read_file` and `write_file` declare a read or a write of `fs:/<path>`
 * and take 100 ms, `grep` is keyless and takes 50 ms (all with `setTimeout`, so fake timers
 * drive them, and every call records when it started and ended).
 */
export function workspace() {
  const path = z.object({ path: z.string() });
  const readFile = new MockTool({
    name: 'read_file',
    description: 'Read a file',
    input: path,
    concurrencySafe: true,
    access: (input) => [{ key: `fs:/${(input as { path: string }).path}`, mode: 'read' }],
    delayMs: 100,
    result: (input) => `contents of ${(input as { path: string }).path}`,
  });
  const writeFile = new MockTool({
    name: 'write_file',
    description: 'Write a file',
    input: path.extend({ text: z.string() }),
    concurrencySafe: true,
    access: (input) => [{ key: `fs:/${(input as { path: string }).path}`, mode: 'write' }],
    delayMs: 100,
    result: (input) => `wrote ${(input as { path: string }).path}`,
  });
  const grep = new MockTool({
    name: 'grep',
    description: 'Search files',
    input: z.object({ pattern: z.string() }),
    concurrencySafe: true,
    delayMs: 50,
    result: (input) => `matches for ${(input as { pattern: string }).pattern}`,
  });
  const registry = new ToolRegistry().add(readFile).add(writeFile).add(grep);
  return { registry, readFile, writeFile, grep };
}

/** Whether two recorded calls ran at the same time for a while. */
export function overlap(
  a: { startedAt: number; endedAt: number | undefined },
  b: { startedAt: number; endedAt: number | undefined },
): boolean {
  return (
    a.startedAt < (b.endedAt ?? Number.POSITIVE_INFINITY) &&
    b.startedAt < (a.endedAt ?? Number.POSITIVE_INFINITY)
  );
}

/** The `tool` messages of a prompt, as `[toolCallId, output type, output value]` per part. */
export function toolResultsIn(prompt: ModelPrompt): [string, string, unknown][][] {
  return prompt
    .filter((message) => message.role === 'tool')
    .map((message) =>
      message.content.flatMap((part) =>
        part.type === 'tool-result'
          ? [
              [
                part.toolCallId,
                part.output.type,
                'value' in part.output ? part.output.value : undefined,
              ] as [string, string, unknown],
            ]
          : [],
      ),
    );
}

/** A promise's state, readable synchronously after advancing fake time. */
export { type TrackedPromise as Tracked, trackPromise as track } from '@toolwaves/core/testing';
