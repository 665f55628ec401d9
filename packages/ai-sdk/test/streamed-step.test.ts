import { ToolRegistry } from '@toolwaves/core';
import { DispatchError, type DispatchEvent, Dispatcher } from '@toolwaves/executor-rx';
import { type ModelMessage, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dispatchStep, dispatchStreamedStep, runToolLoop, toAiSdkTools } from '../src/index.js';
import {
  brokenOffStep,
  failingStep,
  overlap,
  pacedStep,
  type ScriptedCall,
  streamedStep,
  toolResultsIn,
  track,
  workspace,
} from './fixtures.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Two writes of one file, then a read of another: the writes conflict, the read does not. */
const calls: ScriptedCall[] = [
  { id: 's1', name: 'write_file', input: { path: 'x', text: '1' } },
  { id: 's2', name: 'write_file', input: { path: 'x', text: '2' } },
  { id: 's3', name: 'read_file', input: { path: 'y' } },
];
// Parts one every 100 ms from 0: stream start, text start, delta, text end (0–300), s1 at 400,
// s2 at 500, s3 at 600, finish at 700: the model's stream ends at 700.
const CHUNK_MS = 100;
const STREAM_ENDS_AT = 7 * CHUNK_MS;

describe('dispatchStreamedStep with streamText (virtual time)', () => {
  it('starts each call as it arrives, keeps the two writes apart, answers in call order', async () => {
    const { registry, writeFile, readFile } = workspace();
    const dispatcher = new Dispatcher({ registry, mode: 'eager' });
    const model = new MockLanguageModelV3({
      doStream: [pacedStep(calls, 'Working on it.', { chunkDelayMs: CHUNK_MS })],
    });
    const messages: ModelMessage[] = [{ role: 'user', content: 'write x twice, read y' }];
    const result = streamText({ model, tools: toAiSdkTools(registry), messages });
    // The writes start while the model still writes (not held for the message's end).
    const step = track(dispatchStreamedStep({ dispatcher, step: result, whileStreaming: 'all' }));
    const text = track(
      (async () => {
        let written = '';
        for await (const delta of result.textStream) written += delta;
        return written;
      })(),
    );

    await vi.advanceTimersByTimeAsync(STREAM_ENDS_AT - 1);
    // the model is still writing; the first write started when its part arrived
    expect(step.status).toBe('pending');
    expect(writeFile.calls[0]?.startedAt).toBe(4 * CHUNK_MS);
    await vi.advanceTimersByTimeAsync(1_000);

    expect(text.value).toBe('Working on it.');
    expect(step.status).toBe('resolved');
    const [first, second] = writeFile.calls;
    const [read] = readFile.calls;
    expect(first!.startedAt).toBeLessThan(STREAM_ENDS_AT);
    expect(read!.startedAt).toBe(6 * CHUNK_MS); // on arrival: it conflicts with nothing
    expect(overlap(first!, second!)).toBe(false);
    expect(second!.startedAt).toBeGreaterThanOrEqual(first!.endedAt!);
    expect(second!.input).toEqual({ path: 'x', text: '2' });
    const done = step.value!;
    expect(done.calls.map((c) => c.id)).toEqual(['s1', 's2', 's3']);
    expect(done.results.map((r) => [r.toolCallId, r.content])).toEqual([
      ['s1', 'wrote x'],
      ['s2', 'wrote x'],
      ['s3', 'contents of y'],
    ]);
    expect(done.messages.map((m) => m.role)).toEqual(['assistant', 'tool']);
  });
});

describe('runToolLoop with stream: true (virtual time)', () => {
  it('streams each step, dispatching its calls as they are written, results in call order', async () => {
    const { registry, writeFile } = workspace();
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const model = new MockLanguageModelV3({
      doStream: [
        pacedStep(calls, 'Working on it.', { chunkDelayMs: CHUNK_MS }),
        streamedStep([], 'All done.'),
      ],
    });
    const loop = track(
      runToolLoop({ model, dispatcher, stream: true, whileStreaming: 'all', prompt: 'go' }),
    );

    await vi.advanceTimersByTimeAsync(STREAM_ENDS_AT - 1);
    // both writes started while the model was still writing, the second once the first ended
    expect(loop.status).toBe('pending');
    expect(writeFile.calls.map((call) => [call.startedAt, call.endedAt])).toEqual([
      [4 * CHUNK_MS, 5 * CHUNK_MS],
      [5 * CHUNK_MS, 6 * CHUNK_MS],
    ]);
    await vi.advanceTimersByTimeAsync(1_000);

    expect(loop.status).toBe('resolved');
    const result = loop.value!;
    expect(result.text).toBe('All done.');
    expect(result.steps.map((s) => [s.text, s.finishReason, s.calls.length])).toEqual([
      ['Working on it.', 'tool-calls', 3],
      ['All done.', 'stop', 0],
    ]);
    expect(toolResultsIn(model.doStreamCalls[1]!.prompt)).toEqual([
      [
        ['s1', 'text', 'wrote x'],
        ['s2', 'text', 'wrote x'],
        ['s3', 'text', 'contents of y'],
      ],
    ]);
    const [first, second] = writeFile.calls;
    expect(overlap(first!, second!)).toBe(false);
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it("fails with the model's own error when its stream fails", async () => {
    const { registry } = workspace();
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const failure = new Error('overloaded');
    const model = new MockLanguageModelV3({ doStream: [failingStep(failure)] });
    const loop = track(runToolLoop({ model, dispatcher, stream: true, prompt: 'go' }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(loop.status).toBe('rejected');
    expect(loop.error).toBe(failure);
  });
});

describe('dispatchStreamedStep with calls the AI SDK could not parse', () => {
  it('answers each once, with the dispatcher’s soft errors, in call order', async () => {
    const { registry } = workspace();
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const model = new MockLanguageModelV3({
      doStream: [
        pacedStep(
          [
            { id: 'bad-json', name: 'read_file', input: '{"path": "a.ts"' },
            { id: 'unknown', name: 'delete_everything', input: {} },
            { id: 'fine', name: 'read_file', input: { path: 'a.ts' } },
          ],
          '',
          { chunkDelayMs: CHUNK_MS },
        ),
        streamedStep([], 'ok'),
      ],
    });
    const loop = track(runToolLoop({ model, dispatcher, stream: true, prompt: 'go' }));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(loop.status).toBe('resolved');
    const answers = toolResultsIn(model.doStreamCalls[1]!.prompt);
    expect(answers.flat().map(([id, type]) => [id, type])).toEqual([
      ['bad-json', 'error-text'],
      ['unknown', 'error-text'],
      ['fine', 'text'],
    ]);
    const [badJson, unknown] = answers.flat().map(([, , value]) => String(value));
    expect(badJson).toMatch(/^The arguments of the call to `read_file` were not valid JSON/);
    expect(unknown).toMatch(/delete_everything/);
  });
});

describe('runToolLoop with stream: true, cancelled', () => {
  it('fails with the dispatcher’s cancelled error, stops the calls, asks the model nothing more', async () => {
    const { registry, writeFile } = workspace();
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const model = new MockLanguageModelV3({
      doStream: [pacedStep(calls, '', { chunkDelayMs: CHUNK_MS }), streamedStep([], 'never')],
    });
    const controller = new AbortController();
    const loop = track(
      runToolLoop({
        model,
        dispatcher,
        stream: true,
        prompt: 'go',
        signal: controller.signal,
        whileStreaming: 'all', // the write runs while the model writes, and is cancelled
      }),
    );
    await vi.advanceTimersByTimeAsync(4 * CHUNK_MS + 50); // the first write is running
    expect(writeFile.live).toBe(1);
    controller.abort();
    await vi.advanceTimersByTimeAsync(1_000);

    expect(loop.status).toBe('rejected');
    expect(loop.error).toBeInstanceOf(DispatchError);
    expect((loop.error as DispatchError).code).toBe('cancelled');
    expect(writeFile.calls.map((call) => call.outcome)).toEqual(['aborted']);
    expect(model.doStreamCalls).toHaveLength(1);
  });
});

describe("dispatchStreamedStep, whileStreaming: 'read-only' (the default)", () => {
  // A read first, so that something does start while the model writes: s3, s1, s2.
  const readFirst = [calls[2]!, calls[0]!, calls[1]!];

  it("holds the writes until the step's stream has finished, then runs them in call order", async () => {
    const { registry, writeFile, readFile } = workspace();
    const dispatcher = new Dispatcher({ registry, mode: 'eager' });
    const model = new MockLanguageModelV3({
      doStream: [pacedStep(readFirst, 'Working on it.', { chunkDelayMs: CHUNK_MS })],
    });
    const result = streamText({ model, tools: toAiSdkTools(registry), prompt: 'go' });
    const step = track(dispatchStreamedStep({ dispatcher, step: result }));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(step.status).toBe('resolved');
    expect(readFile.calls[0]?.startedAt).toBe(4 * CHUNK_MS); // on arrival
    // the writes arrived at 500 and 600; the message finished at 700
    expect(writeFile.calls.map((call) => call.startedAt)).toEqual([
      STREAM_ENDS_AT,
      STREAM_ENDS_AT + 100,
    ]);
    expect(step.value?.results.map((r) => r.content)).toEqual([
      'contents of y',
      'wrote x',
      'wrote x',
    ]);
  });

  it('starts no write from a stream that fails mid-message: the read ran, the writes are answered', async () => {
    const { registry, writeFile, readFile } = workspace();
    const dispatcher = new Dispatcher({ registry, mode: 'eager' });
    const overloaded = new Error('Overloaded');
    const model = new MockLanguageModelV3({
      doStream: [brokenOffStep(readFirst, overloaded, { chunkDelayMs: CHUNK_MS })],
    });
    const result = streamText({
      model,
      tools: toAiSdkTools(registry),
      prompt: 'go',
      onError: () => {},
    });
    const events: DispatchEvent[] = [];
    const step = track(
      dispatchStreamedStep({ dispatcher, step: result, onEvent: (event) => events.push(event) }),
    );
    await vi.advanceTimersByTimeAsync(2_000);
    expect(step.status).toBe('rejected');
    expect(step.error).toMatchObject({ code: 'source_failed', cause: overloaded });
    expect(writeFile.calls).toEqual([]);
    // the read ran on arrival (400–500), before the stream broke off at 700
    expect(readFile.calls.map((call) => [call.startedAt, call.outcome])).toEqual([[400, 'ok']]);
    expect(
      events.flatMap((event) =>
        event.type === 'call-skipped' ? [[event.toolCallId, event.reason]] : [],
      ),
    ).toEqual([
      ['s1', 'message-incomplete'],
      ['s2', 'message-incomplete'],
    ]);
  });
});

describe('dispatchStep and dispatchStreamedStep options', () => {
  const dispatcher = new Dispatcher({ registry: new ToolRegistry() });

  it('refuse a wrong step or an unknown option, naming it, before dispatching', async () => {
    await expect(dispatchStep({ dispatcher, step: undefined as never })).rejects.toThrow(
      'Expected `step` to be a step result ({ toolCalls, response: { messages } }), got `undefined` (undefined)',
    );
    await expect(
      dispatchStreamedStep({
        dispatcher,
        step: { fullStream: [] } as never,
        onEvents: () => {},
      } as never),
    ).rejects.toMatchObject({
      name: 'ToolLoopError',
      code: 'invalid_options',
      message:
        'Unknown option `onEvents` in the options of dispatchStreamedStep; did you mean `onEvent`? The options are `dispatcher`, `step`, `signal`, `onEvent`, `whileStreaming`',
    });
    await expect(
      dispatchStep({
        dispatcher: new ToolRegistry() as never,
        step: { toolCalls: [], response: { messages: [] } },
      }),
    ).rejects.toThrow('Expected `dispatcher` to be a Dispatcher, got a ToolRegistry');
  });
});
