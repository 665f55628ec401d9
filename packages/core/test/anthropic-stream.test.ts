import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ErrorResponse } from '@anthropic-ai/sdk/resources/shared';
import { describe, expect, it } from 'vitest';
import { MalformedArguments, ToolwavesError, toolCallsFromAnthropicStream } from '../src/index.js';
import { validateInput } from '../src/internal/index.js';
import { controlledStream } from '../src/testing/index.js';
import {
  anthropicTurn,
  jsonPiece,
  readBlockStops,
  toolUseStart,
} from './fixtures/anthropic-events.js';
import { collect, replay } from './fixtures/async-iterables.js';

const read = { id: 'toolu_read', name: 'read_file', input: { path: 'src/config.ts' } };
const edit = {
  id: 'toolu_edit',
  name: 'edit_file',
  input: { path: 'src/config.ts', old: 'a', new: 'b' },
};

describe('toolCallsFromAnthropicStream', () => {
  it('yields the tool_use blocks in order, with text around them, and every event unchanged', async () => {
    const { events, calls } = toolCallsFromAnthropicStream(replay(anthropicTurn));
    const [seenCalls, seenEvents] = await Promise.all([collect(calls), collect(events)]);
    expect(seenCalls).toEqual([read, edit]);
    expect(seenEvents).toHaveLength(anthropicTurn.length);
    seenEvents.forEach((event, i) => {
      expect(event).toBe(anthropicTurn[i]);
    });
  });

  it('yields a call at its content_block_stop while the rest of the turn is still pending', async () => {
    const source = controlledStream<RawMessageStreamEvent>();
    const calls = toolCallsFromAnthropicStream(source).calls[Symbol.asyncIterator]();
    source.push(...anthropicTurn.slice(0, readBlockStops + 1));
    await expect(calls.next()).resolves.toEqual({ value: read, done: false });
    expect(source.pulls).toBe(readBlockStops + 1);
    source.push(...anthropicTurn.slice(readBlockStops + 1));
    source.end();
    await expect(collect({ [Symbol.asyncIterator]: () => calls })).resolves.toEqual([edit]);
  });

  it('fails the calls on an error event, naming it, while the caller still sees the event', async () => {
    const overloaded: ErrorResponse = {
      type: 'error',
      request_id: null,
      error: { type: 'overloaded_error', message: 'Overloaded' },
    };
    const turn: (RawMessageStreamEvent | ErrorResponse)[] = [
      ...anthropicTurn.slice(0, readBlockStops + 3),
      overloaded,
    ];
    const { events, calls } = toolCallsFromAnthropicStream(replay(turn));
    const seen: unknown[] = [];
    const failure = await (async () => {
      for await (const call of calls) seen.push(call);
    })().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(seen).toEqual([read]);
    expect(failure).toBeInstanceOf(ToolwavesError);
    expect(failure).toMatchObject({
      code: 'provider_error',
      message: 'The Anthropic stream reported an error (overloaded_error): Overloaded',
    });
    await expect(collect(events)).resolves.toEqual(turn);
  });

  it('answers a block the stream never closed as incomplete', async () => {
    const { calls } = toolCallsFromAnthropicStream(replay(anthropicTurn.slice(0, 7)));
    const [cut] = await collect(calls);
    expect(cut?.id).toBe('toolu_read');
    expect(cut?.input).toBeInstanceOf(MalformedArguments);
    expect(cut?.input).toEqual(
      new MalformedArguments({
        raw: '{"path": "src/',
        reason: 'the stream ended before the arguments were complete',
      }),
    );
  });

  it('answers JSON that does not parse with a soft error, and no JSON at all as {}', async () => {
    const turn: RawMessageStreamEvent[] = [
      toolUseStart(0, 'toolu_bad', 'read_file'),
      jsonPiece(0, '{"path": '),
      jsonPiece(0, '}'),
      { type: 'content_block_stop', index: 0 },
      toolUseStart(1, 'toolu_none', 'clock'),
      { type: 'content_block_stop', index: 1 },
    ];
    const [bad, none] = await collect(toolCallsFromAnthropicStream(replay(turn)).calls);
    const validation = validateInput(
      { name: 'read_file', description: '', execute: () => '' },
      bad?.input,
    );
    expect(!validation.ok && validation.message).toMatch(
      /^The arguments of the call to `read_file` were not valid JSON \(.+\): \{"path": \}$/,
    );
    expect(none).toEqual({ id: 'toolu_none', name: 'clock', input: {} });
  });
});
