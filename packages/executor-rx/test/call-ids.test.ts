import { fnTool, type ToolCall, ToolRegistry, type ToolResult } from '@toolwaves/core';
import { from, lastValueFrom, Subject, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { DispatchError, Dispatcher } from '../src/index.js';
import { call } from './tool-call.js';

const ran: string[] = [];
const registry = new ToolRegistry().add(
  fnTool<{ n: number }>({
    name: 'work',
    description: 'records that it ran',
    concurrencySafe: true,
    execute: ({ n }) => {
      ran.push(`work ${n}`);
      return `done ${n}`;
    },
  }),
);
const calls = [
  call('a', 'work', { n: 0 }),
  call('a', 'work', { n: 1 }),
  call('b', 'work', { n: 2 }),
];
const repeatedAnswer = (results: readonly ToolResult[]) =>
  results.map((r) => [r.toolCallId, r.isError, r.content]);
const EXPECTED = [
  ['a', false, 'done 0'],
  ['a', true, 'Duplicate tool call id `a`: call 0 has the same id, so call 1 (`work`) was not run'],
  ['b', false, 'done 2'],
];

type Entry = 'dispatch' | 'run' | 'dispatchStream' | 'turn';

async function answers(dispatcher: Dispatcher, entry: Entry, batch: ToolCall[]) {
  if (entry === 'dispatch') return dispatcher.dispatch(batch);
  if (entry === 'run') {
    const events = await lastValueFrom(dispatcher.run(batch).pipe(toArray()));
    const end = events.at(-1);
    return end?.type === 'batch-end' ? end.results : [];
  }
  if (entry === 'dispatchStream') return dispatcher.dispatchStream(from(batch));
  const turn = dispatcher.openTurn();
  const results = Promise.all(batch.map((c) => turn.run(c)));
  await turn.close();
  return results;
}

describe.each(['sequential', 'parallel', 'eager'] as const)('call ids (%s)', (mode) => {
  describe.each<Entry>(['dispatch', 'run', 'dispatchStream', 'turn'])('%s', (entry) => {
    it('a repeated id is answered with a soft error and never runs; the first call with it runs', async () => {
      ran.length = 0;
      const results = await answers(new Dispatcher({ registry, mode }), entry, calls);
      expect(repeatedAnswer(results)).toEqual(EXPECTED);
      expect(ran.sort()).toEqual(['work 0', 'work 2']);
    });
  });

  it('a whole batch with a call without an id is refused before anything runs (invalid_config)', async () => {
    ran.length = 0;
    const dispatcher = new Dispatcher({ registry, mode });
    const batch = [call('a', 'work', { n: 0 }), { name: 'work', input: { n: 1 } } as ToolCall];
    const message =
      'Expected call 1 of the batch to be a tool call ({ id: string, name: string, input }), got `{"name":"work","input":{"n":1}}` (object)';
    await expect(dispatcher.dispatch(batch)).rejects.toMatchObject({
      code: 'invalid_config',
      message,
    });
    expect(() => dispatcher.run(batch)).toThrow(DispatchError);
    expect(() => dispatcher.run(batch)).toThrow(message);
    expect(ran).toEqual([]);
  });

  it('a stream or a turn with a call without an id fails at it (source_failed)', async () => {
    const dispatcher = new Dispatcher({ registry, mode });
    const missing = { name: 'work', input: { n: 1 } } as ToolCall;
    const message =
      'Expected call 1 of the stream to be a tool call ({ id: string, name: string, input }), got `{"name":"work","input":{"n":1}}` (object)';
    await expect(
      dispatcher.dispatchStream(from([call('a', 'work', { n: 0 }), missing])),
    ).rejects.toMatchObject({ code: 'source_failed', message });
    const turn = dispatcher.openTurn();
    const first = turn.run(call('a', 'work', { n: 0 }));
    const second = turn.run(missing);
    await expect(second).rejects.toMatchObject({ code: 'source_failed', message });
    // The first call's tool answers at once: it was answered before the second arrived.
    await expect(first).resolves.toMatchObject({ content: 'done 0' });
    await expect(turn.close()).rejects.toMatchObject({ code: 'source_failed' });
    // An Observable source that emits the same: one Subject fed by hand.
    const source = new Subject<ToolCall>();
    const results = dispatcher.dispatchStream(source);
    source.next(missing);
    await expect(results).rejects.toMatchObject({ code: 'source_failed' });
  });
});
