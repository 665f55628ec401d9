import { fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Dispatcher, type DispatchMode } from '../src/index.js';
import { ends } from './recording.js';

/** One asynchronous call, then thousands that answer synchronously. */
const registry = new ToolRegistry()
  .add(fnTool({ name: 'async', description: 'answers later', execute: async () => 'later' }))
  .add(
    fnTool({
      name: 'sync',
      description: 'answers at once',
      concurrencySafe: true,
      execute: (input) => `now ${(input as { i: number }).i}`,
    }),
  );
// Enough to overflow the stack without the executor's guard: with that guard lifted (no limit on
// nested subscriptions), the sequential run already fails at 1,000 calls in a worker thread (4 MB
// stack, the largest a test runs on); 5,000 keeps a fivefold margin. Many more only cost time:
// a long queue of buffered calls is shifted one call at a time (quadratic in the count).
const COUNT = 5_000;
const calls: ToolCall[] = [
  { id: 'first', name: 'async', input: {} },
  ...Array.from({ length: COUNT }, (_, i) => ({ id: `c${i}`, name: 'sync', input: { i } })),
];

describe.each([
  ['sequential', 8],
  ['parallel', 1],
  ['parallel', 8],
] as [DispatchMode, number][])('a long run of synchronous calls (%s, cap %i)', (mode, cap) => {
  it('does not overflow the stack: every call is answered, in order', async () => {
    const dispatcher = new Dispatcher({ registry, mode, maxConcurrency: cap });
    const events = await lastValueFrom(dispatcher.run(calls).pipe(toArray()));
    expect(ends(events)).toHaveLength(COUNT + 1);
    const end = events.at(-1);
    if (end?.type !== 'batch-end') throw new Error('expected batch-end last');
    expect(end.results[0]?.content).toBe('later');
    expect(end.results.slice(1).every((r, i) => r.content === `now ${i}`)).toBe(true);
    const results = await dispatcher.dispatch(calls);
    expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
  });
});
