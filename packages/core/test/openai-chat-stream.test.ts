import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { MalformedArguments, toolCallsFromOpenAIChatStream } from '../src/index.js';
import { validateInput } from '../src/internal/index.js';
import { controlledStream } from '../src/testing/index.js';
import { collect, replay, settle } from './fixtures/async-iterables.js';
import {
  chatChunk,
  chatTurn,
  secondCallStarts,
  toolCallPiece,
  usageChunk,
} from './fixtures/openai-chat-chunks.js';

const read = { id: 'call_read', name: 'read_file', input: { path: 'src/config.ts' } };
const edit = {
  id: 'call_edit',
  name: 'edit_file',
  input: { path: 'src/config.ts', old: 'a', new: 'b' },
};

const messageOf = (name: string, input: unknown): string => {
  const validation = validateInput({ name, description: '', execute: () => '' }, input);
  return validation.ok ? '(valid)' : validation.message;
};

describe('toolCallsFromOpenAIChatStream', () => {
  it('yields the calls in order and gives the caller every chunk, unchanged', async () => {
    const { events, calls } = toolCallsFromOpenAIChatStream(replay(chatTurn));
    const [seenCalls, seenEvents] = await Promise.all([collect(calls), collect(events)]);
    expect(seenCalls).toEqual([read, edit]);
    expect(seenEvents).toHaveLength(chatTurn.length);
    seenEvents.forEach((event, i) => {
      expect(event).toBe(chatTurn[i]);
    });
  });

  it('yields the first call while the rest of the turn is still pending', async () => {
    const source = controlledStream<ChatCompletionChunk>();
    const calls = toolCallsFromOpenAIChatStream(source).calls[Symbol.asyncIterator]();
    source.push(...chatTurn.slice(0, secondCallStarts + 1));
    await expect(calls.next()).resolves.toEqual({ value: read, done: false });
    expect(source.pulls).toBe(secondCallStarts + 1);

    let second: IteratorResult<unknown> | undefined;
    void calls.next().then((result) => {
      second = result;
    });
    source.push(chatTurn[secondCallStarts + 1] as ChatCompletionChunk);
    await settle();
    expect(second).toBeUndefined();
    source.push(...chatTurn.slice(secondCallStarts + 2));
    source.end();
    await settle();
    expect(second).toEqual({ value: edit, done: false });
    await expect(calls.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it('puts interleaved pieces of parallel calls together, each as soon as it is whole', async () => {
    const source = controlledStream<ChatCompletionChunk>();
    const calls = toolCallsFromOpenAIChatStream(source).calls[Symbol.asyncIterator]();
    const first = calls.next();
    source.push(
      chatChunk(toolCallPiece(0, { id: 'call_a', name: 'read_file', arguments: '{"path":"a' })),
      chatChunk(toolCallPiece(1, { id: 'call_b', name: 'read_file', arguments: '{"path":' })),
      chatChunk(toolCallPiece(0, { arguments: '.ts"}' })),
    );
    await expect(first).resolves.toEqual({
      value: { id: 'call_a', name: 'read_file', input: { path: 'a.ts' } },
      done: false,
    });
    source.push(chatChunk(toolCallPiece(1, { arguments: '"b.ts"}' })), chatChunk({}, 'tool_calls'));
    source.end();
    await expect(collect({ [Symbol.asyncIterator]: () => calls })).resolves.toEqual([
      { id: 'call_b', name: 'read_file', input: { path: 'b.ts' } },
    ]);
  });

  it('answers arguments that are not valid JSON with a soft error naming the problem', async () => {
    const { calls } = toolCallsFromOpenAIChatStream(
      replay([
        chatChunk(toolCallPiece(0, { id: 'call_x', name: 'read_file', arguments: '{"path": "a' })),
        chatChunk(toolCallPiece(1, { id: 'call_y', name: 'read_file', arguments: '{}' })),
        chatChunk({}, 'tool_calls'),
      ]),
    );
    const [broken, fine] = await collect(calls);
    expect(broken?.input).toBeInstanceOf(MalformedArguments);
    expect(messageOf('read_file', broken?.input)).toMatch(
      /^The arguments of the call to `read_file` were not valid JSON \(.+\): \{"path": "a$/,
    );
    expect(fine).toEqual({ id: 'call_y', name: 'read_file', input: {} });
  });

  it('answers a call the stream left half-written, saying the stream ended first', async () => {
    const cutOff = chatTurn.slice(0, secondCallStarts + 1);
    const { calls } = toolCallsFromOpenAIChatStream(replay(cutOff));
    const [first, second] = await collect(calls);
    expect(first).toEqual(read);
    expect(second?.id).toBe('call_edit');
    expect(messageOf('edit_file', second?.input)).toBe(
      'The arguments of the call to `edit_file` were not valid JSON (the stream ended before the arguments were complete): {"path":"src/',
    );
  });

  it("surfaces the provider's stream error on both sides, after what came before it", async () => {
    const failure = new Error('500 The server had an error while processing your request');
    const source = chatTurn.slice(0, secondCallStarts + 1);
    const split = toolCallsFromOpenAIChatStream(replay(source, failure));
    const seenCalls: unknown[] = [];
    await expect(
      (async () => {
        for await (const call of split.calls) seenCalls.push(call);
      })(),
    ).rejects.toBe(failure);
    expect(seenCalls).toEqual([read]);
    const seenEvents: unknown[] = [];
    await expect(
      (async () => {
        for await (const event of split.events) seenEvents.push(event);
      })(),
    ).rejects.toBe(failure);
    expect(seenEvents).toEqual(source);
  });

  it('passes a text-only turn and its usage chunk through with no calls', async () => {
    const turn = [
      chatChunk({ role: 'assistant', content: 'All done.' }),
      chatChunk({}, 'stop'),
      usageChunk,
    ];
    const { events, calls } = toolCallsFromOpenAIChatStream(replay(turn));
    await expect(collect(calls)).resolves.toEqual([]);
    await expect(collect(events)).resolves.toEqual(turn);
  });

  it('reads the choice it is asked for', async () => {
    const other: ChatCompletionChunk = {
      ...chatChunk({}),
      choices: [
        {
          index: 1,
          delta: toolCallPiece(0, { id: 'call_n1', name: 'read_file', arguments: '{}' }),
          finish_reason: 'tool_calls',
        },
      ],
    };
    const byDefault = toolCallsFromOpenAIChatStream(replay([other]));
    await expect(collect(byDefault.calls)).resolves.toEqual([]);
    const second = toolCallsFromOpenAIChatStream(replay([other]), { choice: 1 });
    await expect(collect(second.calls)).resolves.toEqual([
      { id: 'call_n1', name: 'read_file', input: {} },
    ]);
  });

  it("closes the provider's stream only when both sides are closed early", async () => {
    const source = controlledStream<ChatCompletionChunk>();
    const { events, calls } = toolCallsFromOpenAIChatStream(source);
    source.push(...chatTurn);
    const callReader = calls[Symbol.asyncIterator]();
    const eventReader = events[Symbol.asyncIterator]();
    await callReader.next();
    await callReader.return?.();
    expect(source.returned).toBe(false);
    await expect(eventReader.next()).resolves.toEqual({ value: chatTurn[0], done: false });
    await eventReader.return?.();
    expect(source.returned).toBe(true);
  });
});
