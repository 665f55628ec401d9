import { Dispatcher } from '@toolwaves/executor-rx';
import { type ModelMessage, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dispatchStep, toAiSdkTools } from '../src/index.js';
import { overlap, streamedStep, toolResultsIn, track, workspace } from './fixtures.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('dispatchStep with streamText', () => {
  it('streams the text, dispatches the step’s calls and answers them in call order', async () => {
    const { registry, writeFile, readFile } = workspace();
    const dispatcher = new Dispatcher({ registry, mode: 'parallel', maxConcurrency: 2 });
    const model = new MockLanguageModelV3({
      doStream: [
        streamedStep(
          [
            { id: 's1', name: 'write_file', input: { path: 'x', text: '1' } },
            { id: 's2', name: 'write_file', input: { path: 'x', text: '2' } },
            { id: 's3', name: 'read_file', input: { path: 'y' } },
          ],
          'Working on it.',
        ),
        streamedStep([], 'All done.'),
      ],
    });
    const tools = toAiSdkTools(registry);
    const messages: ModelMessage[] = [{ role: 'user', content: 'write x twice, read y' }];
    const texts: string[] = [];

    async function turn(): Promise<number> {
      const result = streamText({ model, tools, messages });
      let text = '';
      for await (const delta of result.textStream) text += delta;
      texts.push(text);
      const step = { toolCalls: await result.toolCalls, response: await result.response };
      const dispatched = await dispatchStep({ dispatcher, step });
      messages.push(...dispatched.messages);
      return dispatched.calls.length;
    }

    const first = track(turn());
    await vi.advanceTimersByTimeAsync(1_000);
    expect(first.value).toBe(3);
    const second = track(turn());
    await vi.advanceTimersByTimeAsync(1_000);
    expect(second.value).toBe(0);

    expect(texts).toEqual(['Working on it.', 'All done.']);
    expect(toolResultsIn(model.doStreamCalls[1]!.prompt)).toEqual([
      [
        ['s1', 'text', 'wrote x'],
        ['s2', 'text', 'wrote x'],
        ['s3', 'text', 'contents of y'],
      ],
    ]);
    const [first1, second2] = writeFile.calls;
    expect(overlap(first1!, second2!)).toBe(false);
    expect(overlap(first1!, readFile.calls[0]!)).toBe(true);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });
});
