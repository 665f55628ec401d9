import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import {
  MalformedArguments,
  ToolwavesError,
  toolCallsFromOpenAIResponsesStream,
} from '../src/index.js';
import { validateInput } from '../src/internal/index.js';
import { controlledStream } from '../src/testing/index.js';
import { replay } from './fixtures/async-iterables.js';
import {
  readArgumentsDone,
  responseObject,
  responsesTurn,
} from './fixtures/openai-responses-events.js';

const read = { id: 'call_read', name: 'read_file', input: { path: 'src/config.ts' } };
const edit = {
  id: 'call_edit',
  name: 'edit_file',
  input: { path: 'src/config.ts', old: 'a', new: 'b' },
};

/** Runs both sides to the end; a side's failure comes back as its error. */
async function drain(stream: { events: AsyncIterable<unknown>; calls: AsyncIterable<unknown> }) {
  const calls: unknown[] = [];
  const events: unknown[] = [];
  const [callsError, eventsError] = await Promise.all([
    (async () => {
      for await (const call of stream.calls) calls.push(call);
    })().then(
      () => undefined,
      (error: unknown) => error,
    ),
    (async () => {
      for await (const event of stream.events) events.push(event);
    })().then(
      () => undefined,
      (error: unknown) => error,
    ),
  ]);
  return { calls, events, callsError, eventsError };
}

describe('toolCallsFromOpenAIResponsesStream', () => {
  it('yields the function calls by call_id, in output order, and every event unchanged', async () => {
    const outcome = await drain(toolCallsFromOpenAIResponsesStream(replay(responsesTurn)));
    expect(outcome.calls).toEqual([read, edit]);
    expect(outcome.events).toHaveLength(responsesTurn.length);
    outcome.events.forEach((event, i) => {
      expect(event).toBe(responsesTurn[i]);
    });
    expect(outcome.callsError).toBeUndefined();
    expect(outcome.eventsError).toBeUndefined();
  });

  it('yields a call at its arguments.done while the rest of the turn is still pending', async () => {
    const source = controlledStream<ResponseStreamEvent>();
    const calls = toolCallsFromOpenAIResponsesStream(source).calls[Symbol.asyncIterator]();
    source.push(...responsesTurn.slice(0, readArgumentsDone + 1));
    await expect(calls.next()).resolves.toEqual({ value: read, done: false });
    expect(source.pulls).toBe(readArgumentsDone + 1);
    source.push(...responsesTurn.slice(readArgumentsDone + 1));
    source.end();
    await expect(calls.next()).resolves.toEqual({ value: edit, done: false });
    await expect(calls.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it('fails the calls on an error event, naming it, while the caller still sees the event', async () => {
    const error: ResponseStreamEvent = {
      type: 'error',
      sequence_number: 9,
      code: 'server_error',
      message: 'The server had an error while processing your request.',
      param: null,
    };
    const events = [...responsesTurn.slice(0, readArgumentsDone + 2), error];
    const outcome = await drain(toolCallsFromOpenAIResponsesStream(replay(events)));
    expect(outcome.calls).toEqual([read]);
    expect(outcome.callsError).toBeInstanceOf(ToolwavesError);
    expect(outcome.callsError).toMatchObject({
      code: 'provider_error',
      message:
        'The OpenAI Responses stream reported an error (server_error): The server had an error while processing your request.',
    });
    expect(outcome.events).toEqual(events);
    expect(outcome.eventsError).toBeUndefined();
  });

  it('fails the calls on response.failed with the response error', async () => {
    const failed: ResponseStreamEvent = {
      type: 'response.failed',
      sequence_number: 9,
      response: responseObject({
        status: 'failed',
        error: { code: 'rate_limit_exceeded', message: 'Rate limit reached' },
      }),
    };
    const outcome = await drain(
      toolCallsFromOpenAIResponsesStream(replay([...responsesTurn.slice(0, 6), failed])),
    );
    expect(outcome.calls).toEqual([]);
    expect(outcome.callsError).toMatchObject({
      code: 'provider_error',
      message:
        'The OpenAI Responses stream reported an error (rate_limit_exceeded): Rate limit reached',
    });
  });

  it('answers a call that response.incomplete cut off as incomplete', async () => {
    const incomplete: ResponseStreamEvent = {
      type: 'response.incomplete',
      sequence_number: 11,
      response: responseObject({
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
      }),
    };
    const turn = [...responsesTurn.slice(0, 10), incomplete];
    const outcome = await drain(toolCallsFromOpenAIResponsesStream(replay(turn)));
    expect(outcome.calls[0]).toEqual(read);
    const cut = outcome.calls[1] as { id: string; input: unknown };
    expect(cut.id).toBe('call_edit');
    expect(cut.input).toBeInstanceOf(MalformedArguments);
    expect((cut.input as MalformedArguments).reason).toBe(
      'the stream ended before the arguments were complete',
    );
  });

  it('answers malformed final arguments with a soft error naming the problem', async () => {
    const turn = responsesTurn.map((event): ResponseStreamEvent => {
      if (event.type === 'response.function_call_arguments.done' && event.item_id === 'fc_2')
        return { ...event, arguments: '{"path": "src/config.ts", "old": ' };
      return event;
    });
    const outcome = await drain(toolCallsFromOpenAIResponsesStream(replay(turn)));
    const broken = outcome.calls[1] as { name: string; input: unknown };
    const validation = validateInput(
      { name: 'edit_file', description: '', execute: () => '' },
      broken.input,
    );
    expect(validation.ok).toBe(false);
    expect(!validation.ok && validation.message).toMatch(
      /^The arguments of the call to `edit_file` were not valid JSON \(.+\): \{"path": "src\/config.ts", "old": $/,
    );
  });
});
