import { abortableDelay, fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { trackPromise } from '@toolwaves/core/testing';
import { Subject } from 'rxjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type CallStartEvent,
  DispatchError,
  type DispatchEvent,
  Dispatcher,
} from '../src/index.js';
import { fakeNow, useFakeClock } from './fake-clock.js';
import { ends, record, starts } from './recording.js';

useFakeClock();

/** What a `work` call declares and how long it takes. */
interface Work {
  readonly ms: number;
  readonly write?: string;
  readonly read?: string;
  readonly unsafe?: boolean;
}

/** Tool runs on the fake clock: call id → [start, end]. */
let runs: Map<string, { start: number; end?: number; aborted?: boolean }>;

const registry = new ToolRegistry().add(
  fnTool<Work>({
    name: 'work',
    description: 'waits its time on the clock',
    concurrencySafe: (input) => input.unsafe !== true,
    access: (input) => [
      ...(input.write === undefined ? [] : [{ key: input.write, mode: 'write' as const }]),
      ...(input.read === undefined ? [] : [{ key: input.read, mode: 'read' as const }]),
    ],
    execute: async (input, context) => {
      const run: { start: number; end?: number; aborted?: boolean } = { start: fakeNow() };
      runs.set(context.toolCallId, run);
      try {
        await abortableDelay(input.ms, context.signal);
      } catch (error) {
        run.aborted = true;
        throw error;
      } finally {
        run.end = fakeNow();
      }
      return `done ${context.toolCallId}`;
    },
  }),
);

beforeEach(() => {
  runs = new Map();
});

const work = (id: string, input: Work): ToolCall => ({ id, name: 'work', input });

/** One line per event: its type, and for calls the id and what it waited for, or the outcome. */
const eventLine = (event: DispatchEvent): string => {
  if (event.type === 'call-start') {
    return `call-start ${event.toolCallId} waited for [${event.waitedFor?.join(', ')}] ${event.waitedMs} ms`;
  }
  if (event.type === 'call-end') return `call-end ${event.toolCallId} ${event.outcome}`;
  return event.type;
};

/** Yields each call after waiting `gap` ms on the fake clock, like a model writing them. */
async function* written(
  calls: readonly { readonly gap: number; readonly call: ToolCall }[],
  log: string[] = [],
): AsyncGenerator<ToolCall> {
  try {
    for (const { gap, call } of calls) {
      if (gap > 0) await new Promise((done) => setTimeout(done, gap));
      log.push(`yield ${call.id}`);
      yield call;
    }
  } finally {
    log.push('closed');
  }
}

describe('dispatchStream', () => {
  it('starts each call as soon as it may while the source is still writing', async () => {
    // Every call, a write too, starts while the source writes (not only the reads).
    const dispatcher = new Dispatcher({ registry, mode: 'parallel', whileStreaming: 'all' });
    const source = written([
      { gap: 0, call: work('a', { ms: 100, write: 'fs:/a' }) },
      { gap: 50, call: work('b', { ms: 10, read: 'fs:/b' }) },
      { gap: 10, call: work('c', { ms: 20, read: 'fs:/a/x' }) },
    ]);
    const run = record(dispatcher.runStream(source));
    await vi.advanceTimersByTimeAsync(500);
    expect(run.status).toBe('complete');
    // a at 0–100; b arrives at 50 and runs at once; c arrives at 60, reads under a: waits.
    expect(Object.fromEntries(runs)).toEqual({
      a: { start: 0, end: 100 },
      b: { start: 50, end: 60 },
      c: { start: 100, end: 120 },
    });
    const callStarts = starts(run.events);
    expect(callStarts.map((e) => [e.toolCallId, e.waitedFor, e.waitedMs, e.wave])).toEqual([
      ['a', [], 0, undefined],
      ['b', [], 0, undefined],
      ['c', [0], 40, undefined],
    ]);
    expect(run.events.some((e) => e.type === 'wave-start' || e.type === 'wave-end')).toBe(false);
    const first = run.events[0];
    expect(first?.type === 'batch-start' && [first.mode, first.plan, first.callCount]).toEqual([
      'eager',
      undefined,
      undefined,
    ]);
    const last = run.events.at(-1);
    expect(last?.type === 'batch-end' && last.results.map((r) => r.content)).toEqual([
      'done a',
      'done b',
      'done c',
    ]);
  });

  it('in sequential mode runs the calls one by one as they arrive', async () => {
    const dispatcher = new Dispatcher({ registry });
    const source = written([
      { gap: 0, call: work('a', { ms: 30 }) },
      { gap: 10, call: work('b', { ms: 30 }) },
      { gap: 100, call: work('c', { ms: 5 }) },
    ]);
    const results = trackPromise(dispatcher.dispatchStream(source));
    await vi.advanceTimersByTimeAsync(500);
    expect(results.value?.map((r) => r.content)).toEqual(['done a', 'done b', 'done c']);
    // b arrives at 10 but waits for a; c arrives at 110, after b ended at 60.
    expect([...runs.values()].map((r) => [r.start, r.end])).toEqual([
      [0, 30],
      [30, 60],
      [110, 115],
    ]);
  });

  it('runs an Observable of calls the same way', async () => {
    const dispatcher = new Dispatcher({ registry, mode: 'eager', maxConcurrency: 2 });
    const calls = new Subject<ToolCall>();
    const results = trackPromise(dispatcher.dispatchStream(calls));
    calls.next(work('a', { ms: 40 }));
    calls.next(work('b', { ms: 10 }));
    calls.next(work('c', { ms: 10 }));
    await vi.advanceTimersByTimeAsync(15);
    calls.next(work('d', { ms: 10, unsafe: true }));
    calls.complete();
    await vi.advanceTimersByTimeAsync(200);
    expect(results.value?.map((r) => r.toolCallId)).toEqual(['a', 'b', 'c', 'd']);
    // Cap 2: c takes b's slot at 10; d (not concurrency-safe) waits for a, b and c.
    expect([...runs.entries()].map(([id, r]) => [id, r.start, r.end])).toEqual([
      ['a', 0, 40],
      ['b', 0, 10],
      ['c', 10, 20],
      ['d', 40, 50],
    ]);
  });

  it('hands every event to onEvent, the same events runStream emits', async () => {
    // The writes start while the source writes, as the expected events say.
    const dispatcher = new Dispatcher({ registry, mode: 'parallel', whileStreaming: 'all' });
    const calls = () =>
      written([
        { gap: 0, call: work('a', { ms: 10, write: 'fs:/a' }) },
        { gap: 5, call: work('b', { ms: 10, write: 'fs:/a' }) },
      ]);
    const seen: string[] = [];
    const results = trackPromise(
      dispatcher.dispatchStream(calls(), { onEvent: (event) => seen.push(eventLine(event)) }),
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(results.value).toHaveLength(2);
    const run = record(dispatcher.runStream(calls()));
    await vi.advanceTimersByTimeAsync(100);
    expect(seen).toEqual(run.events.map(eventLine));
    // b arrives at 5 and waits for a (0–10): it starts at 10, 5 ms after it arrived.
    expect(seen).toEqual([
      'batch-start',
      'call-start a waited for [] 0 ms',
      'call-end a ok',
      'call-start b waited for [0] 5 ms',
      'call-end b ok',
      'batch-end',
    ]);
  });

  it('resolves an empty stream with []', async () => {
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const results = trackPromise(dispatcher.dispatchStream(written([])));
    await vi.advanceTimersByTimeAsync(0);
    expect(results.value).toEqual([]);
  });

  it('answers a second call with an id already seen by a soft error naming the id', async () => {
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const source = written([
      { gap: 0, call: work('a', { ms: 10 }) },
      { gap: 0, call: work('a', { ms: 10 }) },
      { gap: 0, call: work('b', { ms: 10 }) },
    ]);
    const results = trackPromise(dispatcher.dispatchStream(source));
    await vi.advanceTimersByTimeAsync(100);
    expect(results.value?.map((r) => [r.toolCallId, r.isError, r.content])).toEqual([
      ['a', false, 'done a'],
      [
        'a',
        true,
        'Duplicate tool call id `a`: call 0 has the same id, so call 1 (`work`) was not run',
      ],
      ['b', false, 'done b'],
    ]);
    expect(runs.size).toBe(2);
  });

  it('fails with source_failed when the source errors; calls in flight are aborted', async () => {
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const cause = new Error('stream broke');
    async function* breaking(): AsyncGenerator<ToolCall> {
      yield work('a', { ms: 100 });
      await new Promise((done) => setTimeout(done, 20));
      throw cause;
    }
    const run = record(dispatcher.runStream(breaking()));
    await vi.advanceTimersByTimeAsync(200);
    expect(run.status).toBe('error');
    expect(run.error).toBeInstanceOf(DispatchError);
    expect(run.error).toMatchObject({ code: 'source_failed', cause });
    expect((run.error as Error).message).toBe('The stream of tool calls failed: stream broke');
    expect(runs.get('a')).toEqual({ start: 0, end: 20, aborted: true });
    expect(ends(run.events).map((e) => [e.toolCallId, e.outcome])).toEqual([['a', 'aborted']]);
  });

  it('fails with source_failed when the source yields something that is not a tool call', async () => {
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const calls = new Subject<ToolCall>();
    const results = trackPromise(dispatcher.dispatchStream(calls));
    calls.next(work('a', { ms: 10 }));
    calls.next(42 as unknown as ToolCall);
    await vi.advanceTimersByTimeAsync(0);
    expect(results.error).toMatchObject({
      code: 'source_failed',
      message:
        'Expected call 1 of the stream to be a tool call ({ id: string, name: string, input }), got `42` (number)',
    });
    expect(calls.observed).toBe(false);
  });

  it('cancels while the source is still writing and stops reading it', async () => {
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const controller = new AbortController();
    const log: string[] = [];
    const source = written(
      [
        { gap: 0, call: work('a', { ms: 100 }) },
        { gap: 50, call: work('b', { ms: 10 }) },
        { gap: 50, call: work('c', { ms: 10 }) },
      ],
      log,
    );
    const results = trackPromise(dispatcher.dispatchStream(source, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(70);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(results.error).toMatchObject({ code: 'cancelled' });
    expect(runs.get('a')).toEqual({ start: 0, end: 70, aborted: true });
    // The generator was suspended in its wait for c: an async generator handles return() at
    // its next yield, so it closes there; c is never read.
    await vi.advanceTimersByTimeAsync(500);
    expect(log).toEqual(['yield a', 'yield b', 'yield c', 'closed']);
    expect(runs.has('c')).toBe(false);
  });

  it("calls an async iterator's return() at once when cancelled during a pending next()", async () => {
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const controller = new AbortController();
    let returned = 0;
    let pulls = 0;
    const iterator: AsyncIterableIterator<ToolCall> = {
      [Symbol.asyncIterator]: () => iterator,
      next: () => {
        pulls += 1;
        return pulls === 1
          ? Promise.resolve({ done: false, value: work('a', { ms: 100 }) })
          : new Promise<IteratorResult<ToolCall>>(() => undefined);
      },
      return: () => {
        returned += 1;
        return Promise.resolve({ done: true, value: undefined });
      },
    };
    const run = record(dispatcher.runStream(iterator, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(10);
    expect([pulls, returned]).toEqual([2, 0]);
    controller.abort();
    expect(run.status).toBe('error');
    expect(returned).toBe(1);
    expect(ends(run.events).map((e) => [e.toolCallId, e.outcome])).toEqual([['a', 'cancelled']]);
  });

  it('refuses a source that is neither an AsyncIterable nor an Observable', () => {
    const dispatcher = new Dispatcher({ registry });
    expect(() => dispatcher.runStream([work('a', { ms: 1 })] as never)).toThrow(
      'Expected `calls` to be an AsyncIterable or an Observable of tool calls, got',
    );
  });
});

describe("mode: 'eager'", () => {
  it('starts each call when the calls it depends on end, not when a wave ends', async () => {
    // Waves would be [[a, b, d], [c]]: c would wait for the slowest of the first wave (b).
    const dispatcher = new Dispatcher({ registry, mode: 'eager' });
    const calls = [
      work('a', { ms: 10, write: 'fs:/a' }),
      work('b', { ms: 100, write: 'fs:/b' }),
      work('c', { ms: 10, write: 'fs:/a' }),
      work('d', { ms: 10, read: 'fs:/c' }),
    ];
    const run = record(dispatcher.run(calls));
    await vi.advanceTimersByTimeAsync(500);
    expect(run.status).toBe('complete');
    expect([...runs.entries()].map(([id, r]) => [id, r.start, r.end])).toEqual([
      ['a', 0, 10],
      ['b', 0, 100],
      ['d', 0, 10],
      ['c', 10, 20],
    ]);
    const waited = (id: string): CallStartEvent | undefined =>
      starts(run.events).find((e) => e.toolCallId === id);
    expect([waited('c')?.waitedFor, waited('c')?.waitedMs]).toEqual([[0], 10]);
    expect(run.events.map((e) => e.type)).not.toContain('wave-start');
    const first = run.events[0];
    expect(first?.type === 'batch-start' && [first.mode, first.plan, first.callCount]).toEqual([
      'eager',
      undefined,
      4,
    ]);
  });

  it('longest-first: the ready call with the largest observed duration takes the slot', async () => {
    const slow = fnTool({
      name: 'slow',
      description: 'slow',
      concurrencySafe: true,
      execute: () => abortableDelay(50, new AbortController().signal).then(() => 'slow'),
    });
    const quick = fnTool({
      name: 'quick',
      description: 'quick',
      concurrencySafe: true,
      execute: () => abortableDelay(5, new AbortController().signal).then(() => 'quick'),
    });
    const tools = new ToolRegistry().add(slow).add(quick);
    const dispatcher = new Dispatcher({
      registry: tools,
      mode: 'eager',
      maxConcurrency: 1,
      priority: 'longest-first',
    });
    // One call of each first, so the health record knows their durations.
    const warmUp = trackPromise(dispatcher.dispatch([{ id: 'w1', name: 'slow', input: {} }]));
    await vi.advanceTimersByTimeAsync(100);
    expect(warmUp.value).toHaveLength(1);
    const order: string[] = [];
    const run = dispatcher.dispatch(
      [
        { id: 'q', name: 'quick', input: {} },
        { id: 's', name: 'slow', input: {} },
      ],
      {
        onEvent: (event) => {
          if (event.type === 'call-start') order.push(event.toolCallId);
        },
      },
    );
    const results = trackPromise(run);
    await vi.advanceTimersByTimeAsync(200);
    expect(results.value?.map((r) => r.content)).toEqual(['quick', 'slow']);
    expect(order).toEqual(['s', 'q']);
  });
});

describe('calls whose tool outlived its attempt, in eager mode and streams', () => {
  /** A writer that ignores its signal: its tool ends `ms` after it starts, whatever happens. */
  const stubborn = fnTool<{ file: string; ms: number }>({
    name: 'stubborn',
    description: 'writes a file and ignores its signal',
    concurrencySafe: true,
    resourceKey: (input) => input.file,
    execute: (input, context) => {
      runs.set(context.toolCallId, { start: fakeNow() });
      return new Promise<string>((resolve) =>
        setTimeout(() => {
          runs.get(context.toolCallId)!.end = fakeNow();
          resolve('written');
        }, input.ms),
      );
    },
  });
  const tools = new ToolRegistry().add(stubborn);
  const writeFile = (id: string, file: string, ms: number): ToolCall => ({
    id,
    name: 'stubborn',
    input: { file, ms },
  });

  it('a conflicting call waits until the tool has settled, the others do not', async () => {
    const dispatcher = new Dispatcher({ registry: tools, mode: 'eager', timeoutMs: 50 });
    const calls = new Subject<ToolCall>();
    // The write `a` must start (and time out) before the source ends.
    const results = trackPromise(dispatcher.dispatchStream(calls, { whileStreaming: 'all' }));
    calls.next(writeFile('a', 'f', 300)); // times out at 50, its tool goes on until 300
    await vi.advanceTimersByTimeAsync(60);
    calls.next(writeFile('b', 'f', 10)); // depends on a (ended at 50): waits for its tool
    calls.next(writeFile('c', 'g', 10)); // conflicts with nothing
    calls.complete();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(results.value?.map((r) => r.content)).toEqual([
      'Tool `stubborn` timed out after 50 ms',
      'written',
      'written',
    ]);
    expect([...runs.entries()].map(([id, r]) => [id, r.start, r.end])).toEqual([
      ['a', 0, 300],
      ['c', 60, 70],
      ['b', 300, 310],
    ]);
  });
});
