import { abortableDelay, fnTool, type ToolCall } from '@toolwaves/core';
import { trackPromise } from '@toolwaves/core/testing';
import { Subject } from 'rxjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  type CallSkippedEvent,
  type DispatchEvent,
  Dispatcher,
  type RecoveryStrategy,
} from '../src/index.js';
import { fakeNow, useFakeClock } from './fake-clock.js';
import { record } from './recording.js';
import { message, type WorkRun, work, workRegistry } from './timed-work.js';

useFakeClock();

let runs: Map<string, WorkRun>;
beforeEach(() => {
  runs = new Map();
});

/** The tool runs as id → [start, end]. */
const spans = (): Record<string, [number, number | undefined]> =>
  Object.fromEntries([...runs].map(([id, run]) => [id, [run.start, run.end]]));

const skipped = (events: readonly DispatchEvent[]): CallSkippedEvent[] =>
  events.filter((event): event is CallSkippedEvent => event.type === 'call-skipped');

describe("whileStreaming: 'read-only' (the default)", () => {
  it('starts reads as they arrive and the rest once the message is complete, in model order', async () => {
    const dispatcher = new Dispatcher({ registry: workRegistry(runs), mode: 'eager' });
    const source = message({
      calls: [
        work('a', { ms: 30, read: 'fs:/a' }),
        work('b', { ms: 10, write: 'fs:/b' }),
        work('c', { ms: 10, read: 'fs:/c' }),
        work('d', { ms: 10, unsafe: true }),
        work('e', { ms: 10, key: 'db' }),
      ],
      arrivalMs: [0, 10, 20, 25, 30],
      endMs: 50,
      end: 'complete',
    });
    const results = trackPromise(dispatcher.dispatchStream(source));
    await vi.advanceTimersByTimeAsync(200);
    // a and c read: at once. At 50 the message is complete: b (a write) starts; d is unsafe, so
    // it waits for every earlier call (b ends at 60); e (a plain key is a write) waits for d.
    expect(spans()).toEqual({
      a: [0, 30],
      c: [20, 30],
      b: [50, 60],
      d: [60, 70],
      e: [70, 80],
    });
    expect(results.value?.map((result) => result.content)).toEqual([
      'done a',
      'done b',
      'done c',
      'done d',
      'done e',
    ]);
  });

  it('held calls take no slot: a read behind a held write starts under a cap of 1', async () => {
    const dispatcher = new Dispatcher({
      registry: workRegistry(runs),
      mode: 'eager',
      maxConcurrency: 1,
    });
    const source = message({
      calls: [work('w', { ms: 10, write: 'fs:/w' }), work('r', { ms: 10, read: 'fs:/r' })],
      arrivalMs: [0, 5],
      endMs: 40,
      end: 'complete',
    });
    const results = trackPromise(dispatcher.dispatchStream(source));
    await vi.advanceTimersByTimeAsync(100);
    expect(spans()).toEqual({ r: [5, 15], w: [40, 50] });
    expect(results.status).toBe('resolved');
  });

  it('a failing message starts none of its held calls: each answers a soft error, the read in flight is cancelled', async () => {
    const dispatcher = new Dispatcher({ registry: workRegistry(runs), mode: 'eager' });
    const source = message({
      calls: [
        work('a', { ms: 100, read: 'fs:/a' }),
        work('b', { ms: 10, write: 'fs:/b' }),
        work('c', { ms: 10, read: 'fs:/b' }), // reads what b writes: waits for b, held with it
      ],
      arrivalMs: [0, 10, 20],
      endMs: 40,
      end: 'error',
    });
    const run = record(dispatcher.runStream(source));
    await vi.advanceTimersByTimeAsync(200);
    expect(spans()).toEqual({ a: [0, 40] });
    expect(runs.get('a')?.aborted).toBe(true);
    expect(run.status).toBe('error');
    expect(run.error).toMatchObject({ code: 'source_failed' });
    expect(
      skipped(run.events).map(({ toolCallId, reason, content, result }) => ({
        toolCallId,
        reason,
        content,
        isError: result.isError,
      })),
    ).toEqual([
      {
        toolCallId: 'b',
        reason: 'message-incomplete',
        content:
          "Call `b` (`work`) was not started: it declares a write (`fs:/b`), so it waited for the model's message to be complete, and the message failed before it was complete (The stream of tool calls failed: overloaded_error: the model stream broke off). Nothing it asked for was done.",
        isError: true,
      },
      {
        toolCallId: 'c',
        reason: 'message-incomplete',
        content:
          "Call `c` (`work`) was not started: it waits for call `b`, which was held back, so it waited for the model's message to be complete, and the message failed before it was complete (The stream of tool calls failed: overloaded_error: the model stream broke off). Nothing it asked for was done.",
        isError: true,
      },
    ]);
    // The held calls' answers come before the read's cancelled end, and before the error.
    const lines = run.events.map((event) =>
      event.type === 'call-end' ? `end ${event.toolCallId} ${event.outcome}` : event.type,
    );
    expect(lines.slice(-3)).toEqual(['call-skipped', 'call-skipped', 'end a aborted']);
  });

  it('a cancelled dispatch starts none of its held calls and says so', async () => {
    const dispatcher = new Dispatcher({ registry: workRegistry(runs), mode: 'eager' });
    const controller = new AbortController();
    const source = message({
      calls: [work('a', { ms: 100, read: 'fs:/a' }), work('b', { ms: 10, unsafe: true })],
      arrivalMs: [0, 10],
      endMs: 60,
      end: 'complete',
    });
    const run = record(dispatcher.runStream(source, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(30);
    controller.abort();
    await vi.advanceTimersByTimeAsync(200);
    expect(spans()).toEqual({ a: [0, 30] });
    expect(run.error).toMatchObject({ code: 'cancelled' });
    expect(skipped(run.events).map((event) => event.content)).toEqual([
      "Call `b` (`work`) was not started: it is not declared concurrency-safe, so it may have side effects, so it waited for the model's message to be complete, and the dispatch was cancelled before the message was complete. Nothing it asked for was done.",
    ]);
  });

  it('holds what nothing says only reads: an unknown tool, an invalid input, a declaration that throws', async () => {
    const registry = workRegistry(runs)
      .add(
        fnTool({
          name: 'shaky',
          description: 'a declaration that throws',
          concurrencySafe: () => {
            throw new Error('cannot tell');
          },
          execute: () => 'ran',
        }),
      )
      .add(
        fnTool({
          name: 'lookup',
          description: 'a read with a schema',
          input: z.object({ q: z.string() }),
          concurrencySafe: true,
          execute: () => 'found',
        }),
      );
    const dispatcher = new Dispatcher({ registry, mode: 'eager' });
    // Each alone in its own failing message (an unsafe call would hold every later one).
    const answers: string[] = [];
    for (const call of [
      { id: 'u', name: 'nobody', input: {} },
      { id: 'i', name: 'lookup', input: { q: 1 } },
      { id: 's', name: 'shaky', input: {} },
    ]) {
      const run = record(
        dispatcher.runStream(message({ calls: [call], arrivalMs: [0], endMs: 10, end: 'error' })),
      );
      await vi.advanceTimersByTimeAsync(20);
      expect(run.error).toMatchObject({ code: 'source_failed' });
      answers.push(...skipped(run.events).map((event) => event.content));
    }
    expect(answers).toEqual([
      expect.stringMatching(
        /^Call `u` \(`nobody`\) was not started: no tool has its name, so nothing says it only reads,/,
      ),
      expect.stringMatching(
        /^Call `i` \(`lookup`\) was not started: its input is invalid, so nothing says it only reads,/,
      ),
      expect.stringMatching(
        /^Call `s` \(`shaky`\) was not started: its declarations could not be read,/,
      ),
    ]);
    // A safe call that declares nothing, and a valid lookup, are reads: they start at once.
    const t0 = fakeNow();
    const run = record(
      dispatcher.runStream(
        message({
          calls: [work('k', { ms: 5 }), { id: 'l', name: 'lookup', input: { q: 'x' } }],
          arrivalMs: [0, 0],
          endMs: 10,
          end: 'error',
        }),
      ),
    );
    await vi.advanceTimersByTimeAsync(20);
    expect(spans()).toEqual({ k: [t0, t0 + 5] });
    expect(run.events).toContainEqual(
      expect.objectContaining({
        type: 'call-end',
        toolCallId: 'l',
        outcome: 'ok',
        content: 'found',
      }),
    );
    expect(skipped(run.events)).toEqual([]);
  });

  it("a turn's message is complete at close(): its writes start then; a cancelled turn answers them", async () => {
    const dispatcher = new Dispatcher({ registry: workRegistry(runs), mode: 'eager' });
    const turn = dispatcher.openTurn();
    const read = trackPromise(turn.run(work('r', { ms: 10, read: 'fs:/r' })));
    const write = trackPromise(turn.run(work('w', { ms: 10, write: 'fs:/w' })));
    await vi.advanceTimersByTimeAsync(30);
    expect(read.value?.content).toBe('done r');
    expect(write.status).toBe('pending');
    const closed = trackPromise(turn.close());
    await vi.advanceTimersByTimeAsync(30);
    expect(spans()).toEqual({ r: [0, 10], w: [30, 40] });
    expect(write.value?.content).toBe('done w');
    expect(closed.status).toBe('resolved');

    const controller = new AbortController();
    const cancelled = dispatcher.openTurn({ signal: controller.signal });
    const slow = trackPromise(cancelled.run(work('r2', { ms: 100, read: 'fs:/r' })));
    const held = trackPromise(cancelled.run(work('w2', { ms: 10, write: 'fs:/w' })));
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs.has('w2')).toBe(false);
    expect(slow.status).toBe('rejected');
    expect(held.value).toMatchObject({ toolCallId: 'w2', isError: true, durationMs: 0 });
    expect(held.value?.content).toMatch(
      /^Call `w2` \(`work`\) was not started: it declares a write/,
    );
  });

  it("'all' starts every call as soon as the rules allow, and keeps what it started", async () => {
    const dispatcher = new Dispatcher({ registry: workRegistry(runs), mode: 'eager' });
    const source = message({
      calls: [work('a', { ms: 10, read: 'fs:/a' }), work('b', { ms: 10, write: 'fs:/b' })],
      arrivalMs: [0, 5],
      endMs: 30,
      end: 'error',
    });
    const run = record(dispatcher.runStream(source, { whileStreaming: 'all' }));
    await vi.advanceTimersByTimeAsync(100);
    // The write started from a message that then failed: what 'read-only' prevents.
    expect(spans()).toEqual({ a: [0, 10], b: [5, 15] });
    expect(run.error).toMatchObject({ code: 'source_failed' });
    expect(skipped(run.events)).toEqual([]);
  });

  it('the dispatcher default can be changed, and a dispatch overrides it', async () => {
    const dispatcher = new Dispatcher({
      registry: workRegistry(runs),
      mode: 'eager',
      whileStreaming: 'all',
    });
    const calls = new Subject<ToolCall>();
    const first = trackPromise(dispatcher.dispatchStream(calls));
    calls.next(work('w', { ms: 10, write: 'fs:/w' }));
    await vi.advanceTimersByTimeAsync(5);
    expect(runs.has('w')).toBe(true);
    calls.complete();
    await vi.advanceTimersByTimeAsync(10);
    expect(first.status).toBe('resolved');

    const more = new Subject<ToolCall>();
    const second = trackPromise(dispatcher.dispatchStream(more, { whileStreaming: 'read-only' }));
    more.next(work('w2', { ms: 10, write: 'fs:/w' }));
    await vi.advanceTimersByTimeAsync(5);
    expect(runs.has('w2')).toBe(false);
    more.complete();
    await vi.advanceTimersByTimeAsync(10);
    expect(second.status).toBe('resolved');
    expect(runs.get('w2')).toEqual({ start: 20, end: 30 });
  });

  it('a retry that recovery corrects into a write is not started before the message is complete', async () => {
    const registry = workRegistry(runs).add(
      fnTool<{ ms: number }>({
        name: 'probe',
        description: 'a read that fails after its time',
        concurrencySafe: true,
        access: () => [{ key: 'fs:/a', mode: 'read' }],
        execute: async (input, context) => {
          await abortableDelay(input.ms, context.signal);
          throw new Error('not there');
        },
      }),
    );
    const strategy: RecoveryStrategy = {
      name: 'write-instead',
      decide: () => ({
        action: 'retry',
        delayMs: 0,
        correction: { toolName: 'work', input: { ms: 10, write: 'fs:/a' } },
      }),
    };
    const dispatcher = new Dispatcher({ registry, mode: 'eager', recovery: { strategy } });
    const probe = (id: string, ms: number): ToolCall => ({ id, name: 'probe', input: { ms } });
    // p1 fails at 10, while the message (until 50) is written: its correction is refused.
    // p2 fails at 60, once the message is complete: its correction runs.
    const early = trackPromise(
      dispatcher.dispatchStream(
        message({ calls: [probe('p1', 10)], arrivalMs: [0], endMs: 50, end: 'complete' }),
      ),
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(early.value?.[0]?.content).toBe(
      "Call `p1` was not retried: recovery corrected it into `work`, but it declares a write (`fs:/a`), and the model's message is not complete yet. Nothing the correction asked for was done.",
    );
    expect(early.value?.[0]?.isError).toBe(true);
    expect(runs.size).toBe(0);
    const t0 = fakeNow();
    const late = trackPromise(
      dispatcher.dispatchStream(
        message({ calls: [probe('p2', 60)], arrivalMs: [0], endMs: 50, end: 'complete' }),
      ),
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(late.value?.[0]?.content).toBe('done p2');
    expect(spans()).toEqual({ p2: [t0 + 60, t0 + 70] });
  });
});
