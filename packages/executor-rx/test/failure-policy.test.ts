import { fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { trackPromise } from '@toolwaves/core/testing';
import { describe, expect, it, vi } from 'vitest';
import { DispatchError, type DispatchEvent, Dispatcher, type DispatchMode } from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { record } from './recording.js';

useFakeClock();

/** `edit` fails on the file `bad`; `read` reads; both keyed by their path. */
const registry = new ToolRegistry()
  .add(
    fnTool<{ path: string }>({
      name: 'edit',
      description: 'edits a file',
      concurrencySafe: true,
      access: ({ path }) => [{ key: `fs:/${path}`, mode: 'write' }],
      execute: ({ path }) => {
        if (path === 'bad') throw new Error('no such file');
        return `edited ${path}`;
      },
    }),
  )
  .add(
    fnTool<{ path: string }>({
      name: 'read',
      description: 'reads a file',
      concurrencySafe: true,
      access: ({ path }) => [{ key: `fs:/${path}`, mode: 'read' }],
      execute: ({ path }) => `read ${path}`,
    }),
  );

const calls: ToolCall[] = [
  { id: 'e1', name: 'edit', input: { path: 'bad' } },
  { id: 'e2', name: 'edit', input: { path: 'bad' } },
  { id: 'r1', name: 'read', input: { path: 'other' } },
  { id: 'r2', name: 'read', input: { path: 'bad' } },
];

const lines = (events: readonly DispatchEvent[]) =>
  events.flatMap((event) =>
    event.type === 'call-skipped'
      ? [`skipped ${event.toolCallId} ${event.reason} ${event.failedCallId}`]
      : event.type === 'call-end'
        ? [`end ${event.toolCallId} ${event.outcome}`]
        : [],
  );

describe.each<DispatchMode>(['sequential', 'parallel', 'eager'])('onFailure (%s)', (mode) => {
  it("'skip-dependents': the calls on the failed file are skipped, naming it; the rest run", async () => {
    const dispatcher = new Dispatcher({ registry, mode, onFailure: 'skip-dependents' });
    const run = record(dispatcher.run(calls));
    await vi.runAllTimersAsync();
    expect(lines(run.events).sort()).toEqual([
      'end e1 error',
      'end r1 ok',
      'skipped e2 dependency-failed e1',
      'skipped r2 dependency-failed e1',
    ]);
    const end = run.events.at(-1);
    expect(end?.type === 'batch-end' && end.results.map((r) => r.content)).toEqual([
      'Tool `edit` failed: no such file',
      'Call `e2` (`edit`) did not run: it depends on call `e1` (`edit`), which failed',
      'read other',
      // Eager: r2 waits for e2 (the latest writer of `bad`), which stands for e1. Waves: r2
      // depends on every earlier conflicting call that ran before it.
      mode === 'eager'
        ? 'Call `r2` (`read`) did not run: it depends on call `e1` (`edit`) (through call `e2`), which failed'
        : 'Call `r2` (`read`) did not run: it depends on call `e1` (`edit`), which failed',
    ]);
  });

  it("'stop' per dispatch: nothing starts after the first soft error", async () => {
    const dispatcher = new Dispatcher({ registry, mode, maxConcurrency: 1 });
    const results = await dispatcher.dispatch(calls, { onFailure: 'stop' });
    expect(results.map((r) => [r.toolCallId, r.isError, r.content])).toEqual([
      ['e1', true, 'Tool `edit` failed: no such file'],
      ...['e2', 'r1', 'r2'].map((id, k) => [
        id,
        true,
        `Call \`${id}\` (\`${k === 0 ? 'edit' : 'read'}\`) did not run: call \`e1\` (\`edit\`) failed first, and the failure policy is 'stop'`,
      ]),
    ]);
  });
});

it("a turn answers a skipped call's run with its soft error", async () => {
  const turn = new Dispatcher({ registry, mode: 'eager', onFailure: 'skip-dependents' }).openTurn();
  const answers = calls.map((call) => trackPromise(turn.run(call)));
  const closed = trackPromise(turn.close());
  await vi.runAllTimersAsync();
  expect(closed.status).toBe('resolved');
  expect(answers.map((a) => [a.value?.toolCallId, a.value?.isError])).toEqual([
    ['e1', true],
    ['e2', true],
    ['r1', false],
    ['r2', true],
  ]);
});

it('refuses an unknown failure policy, naming the option and the value', async () => {
  expect(() => new Dispatcher({ registry, onFailure: 'halt' as never })).toThrow(DispatchError);
  expect(() => new Dispatcher({ registry, onFailure: 'halt' as never })).toThrow(
    /^Expected `onFailure` to be 'continue', 'skip-dependents' or 'stop', got .*halt/,
  );
  await expect(
    new Dispatcher({ registry }).dispatch(calls, { onFailure: 1 as never }),
  ).rejects.toThrow(/^Expected `onFailure` to be .*, got .*1/);
});
