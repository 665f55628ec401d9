import { ToolRegistry } from '@toolwaves/core';
import { MockTool } from '@toolwaves/core/testing';
import { expect, it, vi } from 'vitest';
import { Dispatcher } from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { ends, record } from './recording.js';
import { call } from './tool-call.js';

useFakeClock();

it('runs the worked example: wave 1 overlaps four calls, then the edit alone, then the read', async () => {
  const path = (input: unknown) => (input as { path: string }).path;
  const read = new MockTool({
    name: 'read',
    delayMs: 100,
    concurrencySafe: true,
    resourceKey: path,
  });
  const edit = new MockTool({ name: 'edit', delayMs: 100 });
  const grep = new MockTool({ name: 'grep', delayMs: 100, concurrencySafe: true });
  const stat = new MockTool({ name: 'stat', delayMs: 100, concurrencySafe: true });
  const registry = new ToolRegistry().add(read).add(edit).add(grep).add(stat);
  const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
  const run = record(
    dispatcher.run([
      call('0', 'read', { path: 'a' }),
      call('1', 'read', { path: 'b' }),
      call('2', 'edit', { path: 'c' }),
      call('3', 'grep', { pattern: '*' }),
      call('4', 'read', { path: 'a' }),
      call('5', 'stat', { path: '*' }),
    ]),
  );
  await vi.advanceTimersByTimeAsync(300);
  expect(run.status).toBe('complete');

  const start = run.events[0];
  if (start?.type !== 'batch-start') throw new Error('expected batch-start first');
  expect(start.plan?.planner).toBe('greedy');
  expect(start.plan?.waves.map((wave) => wave.calls)).toEqual([[0, 1, 3, 5], [2], [4]]);
  expect(start.explanation.map((e) => [e.index, e.wave, e.reason])).toEqual([
    [0, 0, 'no earlier call conflicts with its keys: joins the earliest open wave'],
    [1, 0, 'no earlier call conflicts with its keys: joins the earliest open wave'],
    [2, 1, 'not concurrency-safe: runs alone'],
    [3, 0, 'keyless: joins the earliest open wave'],
    [4, 2, 'waits for call 0 on key a (write)'],
    [5, 0, 'keyless: joins the earliest open wave'],
  ]);

  // Wave 1's four calls overlap: all run over [0, 100].
  const span = (tool: MockTool) => tool.calls.map((c) => [c.toolCallId, c.startedAt, c.endedAt]);
  expect(span(read)).toEqual([
    ['0', 0, 100],
    ['1', 0, 100],
    ['4', 200, 300],
  ]);
  expect(span(grep)).toEqual([['3', 0, 100]]);
  expect(span(stat)).toEqual([['5', 0, 100]]);
  // Then the edit, alone; then the second read of `a`.
  expect(span(edit)).toEqual([['2', 100, 200]]);

  expect(run.events.map((e) => (e.type === 'wave-start' ? `wave ${e.wave}` : e.type))).toEqual([
    'batch-start',
    'wave 0',
    ...Array(4).fill('call-start'),
    ...Array(4).fill('call-end'),
    'wave-end',
    'wave 1',
    'call-start',
    'call-end',
    'wave-end',
    'wave 2',
    'call-start',
    'call-end',
    'wave-end',
    'batch-end',
  ]);
  expect(ends(run.events).map((e) => [e.toolCallId, e.wave])).toEqual([
    ['0', 0],
    ['1', 0],
    ['3', 0],
    ['5', 0],
    ['2', 1],
    ['4', 2],
  ]);
  const end = run.events.at(-1);
  expect(end?.type === 'batch-end' && end.results.map((r) => r.toolCallId)).toEqual([
    '0',
    '1',
    '2',
    '3',
    '4',
    '5',
  ]);
  expect(end?.type === 'batch-end' && end.durationMs).toBe(300);
});
