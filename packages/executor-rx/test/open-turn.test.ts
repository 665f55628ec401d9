import { abortableDelay, declareTool, fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { trackPromise } from '@toolwaves/core/testing';
import { describe, expect, it, vi } from 'vitest';
import { type DispatchError, Dispatcher, type ToolExecute } from '../src/index.js';
import { fakeNow, useFakeClock } from './fake-clock.js';

useFakeClock();

/** What the framework's own implementation did: call id → [start, end] on the fake clock. */
type Runs = Map<string, { start: number; end?: number; aborted?: boolean }>;

/** A framework's implementation of a tool: waits `ms` on the clock (obeying its signal). */
const frameworkTool =
  (runs: Runs, ms: number): ToolExecute =>
  async (input, context) => {
    const run: { start: number; end?: number; aborted?: boolean } = { start: fakeNow() };
    runs.set(context.toolCallId, run);
    try {
      await abortableDelay(ms, context.signal);
    } catch (error) {
      run.aborted = true;
      throw error;
    } finally {
      run.end = fakeNow();
    }
    return `edited ${(input as { path: string }).path}`;
  };

const registry = (): ToolRegistry =>
  new ToolRegistry()
    .add(
      declareTool<{ path: string }>({
        name: 'edit_file',
        concurrencySafe: true,
        access: ({ path }) => [{ key: `fs:/${path}`, mode: 'write' }],
      }),
    )
    .add(
      declareTool<{ path: string }>({
        name: 'read_file',
        concurrencySafe: true,
        access: ({ path }) => [{ key: `fs:/${path}`, mode: 'read' }],
      }),
    )
    .add(fnTool({ name: 'own', description: 'has its own execute', execute: () => 'own answer' }));

const edit = (id: string, path: string): ToolCall => ({ id, name: 'edit_file', input: { path } });
const read = (id: string, path: string): ToolCall => ({ id, name: 'read_file', input: { path } });

describe('openTurn', () => {
  it('starts each call as soon as the calls it depends on have ended; results per call', async () => {
    const runs: Runs = new Map();
    const dispatcher = new Dispatcher({ registry: registry(), mode: 'parallel' });
    // The edits start before close(), while `d` is still to come.
    const turn = dispatcher.openTurn({ whileStreaming: 'all' });
    const a = trackPromise(turn.run(edit('a', 'x'), frameworkTool(runs, 30)));
    const b = trackPromise(turn.run(edit('b', 'x'), frameworkTool(runs, 10)));
    const c = trackPromise(turn.run(read('c', 'y'), frameworkTool(runs, 5)));
    await vi.advanceTimersByTimeAsync(20);
    const d = trackPromise(turn.run(read('d', 'x'), frameworkTool(runs, 5)));
    const closed = trackPromise(turn.close());
    await vi.advanceTimersByTimeAsync(100);
    expect(Object.fromEntries([...runs].map(([id, run]) => [id, [run.start, run.end]]))).toEqual({
      a: [0, 30],
      b: [30, 40],
      c: [0, 5],
      d: [40, 45],
    });
    expect(c.value).toEqual({
      toolCallId: 'c',
      toolName: 'read_file',
      content: 'edited y',
      isError: false,
      durationMs: 5,
    });
    expect([a, b, d].map((p) => p.value?.content)).toEqual(['edited x', 'edited x', 'edited x']);
    expect(closed.status).toBe('resolved');
  });

  it('a tool the registry does not know runs alone when it comes with its execute; without one it is the unknown-tool soft error', async () => {
    const runs: Runs = new Map();
    const dispatcher = new Dispatcher({ registry: registry(), mode: 'eager' });
    const turn = dispatcher.openTurn();
    const x = trackPromise(turn.run(read('r1', 'y'), frameworkTool(runs, 10)));
    const y = trackPromise(
      turn.run({ id: 'u', name: 'framework_only', input: { path: 'z' } }, frameworkTool(runs, 10)),
    );
    const z = trackPromise(turn.run(read('r2', 'y'), frameworkTool(runs, 10)));
    const w = trackPromise(turn.run({ id: 'n', name: 'nobody', input: {} }));
    const own = trackPromise(turn.run({ id: 'o', name: 'own', input: {} }));
    const closed = trackPromise(turn.close());
    await vi.advanceTimersByTimeAsync(100);
    expect(closed.status).toBe('resolved');
    expect([...runs].map(([id, run]) => [id, run.start, run.end])).toEqual([
      ['r1', 0, 10],
      ['u', 10, 20],
      ['r2', 20, 30],
    ]);
    expect([x, y, z].map((p) => p.value?.isError)).toEqual([false, false, false]);
    expect(w.value).toMatchObject({ isError: true, toolName: 'nobody' });
    expect(w.value?.content).toMatch(/^Unknown tool `nobody`; registered tools: /);
    expect(own.value?.content).toBe('own answer');
  });

  it('a declared tool run without an execute answers a soft error saying it is declared only', async () => {
    const dispatcher = new Dispatcher({ registry: registry() });
    // The edit is awaited before close(): it must start before the message is complete.
    const turn = dispatcher.openTurn({ whileStreaming: 'all' });
    const result = await turn.run(edit('a', 'x'));
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/declared only/);
    await turn.close();
  });

  it('a cancelled turn rejects every pending run and close(), and starts nothing new', async () => {
    const runs: Runs = new Map();
    const controller = new AbortController();
    const dispatcher = new Dispatcher({ registry: registry(), mode: 'parallel' });
    const turn = dispatcher.openTurn({ signal: controller.signal });
    const a = trackPromise(turn.run(edit('a', 'x'), frameworkTool(runs, 30)));
    const b = trackPromise(turn.run(edit('b', 'x'), frameworkTool(runs, 30)));
    const closed = trackPromise(turn.close());
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    await vi.advanceTimersByTimeAsync(100);
    for (const settled of [a, b, closed]) {
      expect(settled.status).toBe('rejected');
      expect((settled.error as DispatchError).code).toBe('cancelled');
    }
    expect([...runs].map(([id, run]) => [id, run.start, run.end, run.aborted])).toEqual([
      ['a', 0, 10, true],
    ]);
    const late = trackPromise(turn.run(edit('c', 'y'), frameworkTool(runs, 1)));
    await vi.advanceTimersByTimeAsync(10);
    expect((late.error as DispatchError).code).toBe('cancelled');
    expect(runs.has('c')).toBe(false);
  });

  it('an already aborted signal: nothing runs', async () => {
    const runs: Runs = new Map();
    const controller = new AbortController();
    controller.abort();
    const turn = new Dispatcher({ registry: registry() }).openTurn({ signal: controller.signal });
    const a = trackPromise(turn.run(edit('a', 'x'), frameworkTool(runs, 1)));
    await vi.advanceTimersByTimeAsync(10);
    expect((a.error as DispatchError).code).toBe('cancelled');
    await expect(turn.close()).rejects.toMatchObject({ code: 'cancelled' });
    expect(runs.size).toBe(0);
  });

  it('run after close() is refused (turn_closed); close() resolves once every call settled', async () => {
    const runs: Runs = new Map();
    const turn = new Dispatcher({ registry: registry(), mode: 'eager' }).openTurn();
    const a = trackPromise(turn.run(edit('a', 'x'), frameworkTool(runs, 50)));
    const closed = trackPromise(turn.close());
    await vi.advanceTimersByTimeAsync(49);
    expect(closed.status).toBe('pending');
    await expect(turn.run(edit('b', 'y'))).rejects.toMatchObject({
      name: 'DispatchError',
      code: 'turn_closed',
      message: 'The turn is closed: call `b` was not run',
    });
    await vi.advanceTimersByTimeAsync(1);
    expect(a.status).toBe('resolved');
    expect(closed.status).toBe('resolved');
  });

  it('the given execute runs inside the pipeline: hooks, timeout and events see it', async () => {
    const runs: Runs = new Map();
    const seen: string[] = [];
    const dispatcher = new Dispatcher({
      registry: registry(),
      mode: 'eager',
      timeoutMs: 20,
      hooks: {
        pre: [
          ({ call }) =>
            call.id === 'blocked' ? { action: 'block', reason: 'no' } : { action: 'allow' },
        ],
      },
    });
    const turn = dispatcher.openTurn({ onEvent: (event) => seen.push(event.type) });
    const slow = trackPromise(turn.run(edit('slow', 'x'), frameworkTool(runs, 100)));
    const blocked = trackPromise(turn.run(edit('blocked', 'y'), frameworkTool(runs, 1)));
    const closed = trackPromise(turn.close());
    await vi.advanceTimersByTimeAsync(200);
    expect(closed.status).toBe('resolved');
    expect(slow.value).toMatchObject({
      isError: true,
      content: 'Tool `edit_file` timed out after 20 ms',
    });
    expect(runs.get('slow')).toMatchObject({ start: 0, end: 20, aborted: true });
    expect(blocked.value?.isError).toBe(true);
    expect(runs.has('blocked')).toBe(false);
    expect(seen[0]).toBe('batch-start');
    expect(seen.at(-1)).toBe('batch-end');
  });

  it('refuses an execute that is not a function, naming the call', async () => {
    const turn = new Dispatcher({ registry: registry() }).openTurn();
    await expect(turn.run(edit('a', 'x'), 'nope' as unknown as ToolExecute)).rejects.toThrow(
      'Expected `execute` of call `a` to be a function, got string',
    );
    await turn.close();
  });
});
