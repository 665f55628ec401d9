import {
  type AttemptEndInfo,
  abortableDelay,
  type CoordinationGrant,
  type Coordinator,
  fnTool,
  type Instrumentation,
  type ToolCall,
  ToolRegistry,
} from '@toolwaves/core';
import { trackPromise } from '@toolwaves/core/testing';
import { from } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { Dispatcher, type DispatcherOptions, type DispatchMode } from '../src/index.js';
import { fakeNow, useFakeClock } from './fake-clock.js';
import { record } from './recording.js';
import { retryOnce } from './recovery-strategies.js';

useFakeClock();

/**
 * An instrumentation that writes down every call it gets, one line each, and checks the
 * contract as it goes: every attempt started is ended once, the batch ends once and last.
 */
class RecordingInstrumentation implements Instrumentation {
  readonly lines: string[] = [];
  /** The attempt whose `run` is on the stack (the tool reads it to say where it ran). */
  current: string | undefined;
  open = new Set<string>();
  batchEnds = 0;

  startBatch(info: Parameters<Instrumentation['startBatch']>[0]) {
    this.lines.push(
      `batch ${info.mode} ${info.source} planner=${info.planner} calls=${info.callCount} cap=${info.maxConcurrency}`,
    );
    return {
      startAttempt: (
        attempt: Parameters<ReturnType<Instrumentation['startBatch']>['startAttempt']>[0],
      ) => {
        const name = `${attempt.toolCallId}#${attempt.attempt}`;
        expect(this.open.has(name)).toBe(false);
        this.open.add(name);
        this.lines.push(
          `start ${name} @${fakeNow()} index=${attempt.index} waitedFor=[${attempt.waitedFor.join(',')}]`,
        );
        let ended = false;
        return {
          granted: (grant: { keyWaitMs: number; fleetWaitMs: number; fencingToken?: number }) => {
            this.lines.push(
              `granted ${name} @${fakeNow()} key=${grant.keyWaitMs} fleet=${grant.fleetWaitMs} token=${grant.fencingToken}`,
            );
          },
          run: <T>(fn: () => T): T => {
            const outer = this.current;
            this.current = name;
            try {
              return fn();
            } finally {
              this.current = outer;
            }
          },
          end: (end: AttemptEndInfo) => {
            expect(ended).toBe(false);
            ended = true;
            this.open.delete(name);
            this.lines.push(
              `end ${name} @${fakeNow()} ${end.outcome} kind=${end.errorKind} retried=${end.retried}${end.result === undefined ? '' : ` "${end.result.content}"`}`,
            );
          },
        };
      },
      end: (end: { outcome: string; callCount: number; waves?: number; error?: unknown }) => {
        this.batchEnds += 1;
        expect([...this.open]).toEqual([]);
        this.lines.push(
          `batch-end @${fakeNow()} ${end.outcome} calls=${end.callCount} waves=${end.waves}${end.error === undefined ? '' : ` ${(end.error as { code?: string }).code}`}`,
        );
      },
    };
  }
}

/** Tool `work`: waits `ms` (obeying its signal), notes in which attempt's `run` it started. */
function setUp(
  instrumentation: RecordingInstrumentation,
  options: Partial<DispatcherOptions> = {},
) {
  const ranInside: Record<string, string | undefined> = {};
  let failures = 0;
  const registry = new ToolRegistry()
    .add(
      fnTool<{ ms: number; write?: string; read?: string; fail?: number }>({
        name: 'work',
        description: 'waits its time',
        concurrencySafe: true,
        access: (input) => [
          ...(input.write === undefined ? [] : [{ key: input.write, mode: 'write' as const }]),
          ...(input.read === undefined ? [] : [{ key: input.read, mode: 'read' as const }]),
        ],
        execute: async (input, context) => {
          ranInside[`${context.toolCallId}#${context.attempt}`] = instrumentation.current;
          await abortableDelay(input.ms, context.signal);
          if ((input.fail ?? 0) > failures) {
            failures += 1;
            throw new Error('flaky');
          }
          return `done ${context.toolCallId}`;
        },
      }),
    )
    .add(
      fnTool<{ ms: number }>({
        name: 'barrier',
        description: 'waits its time; not concurrency-safe',
        execute: async (input, context) => {
          await abortableDelay(input.ms, context.signal);
          return `done ${context.toolCallId}`;
        },
      }),
    );
  const dispatcher = new Dispatcher({ registry, instrumentation, ...options });
  return { dispatcher, ranInside };
}

const calls: ToolCall[] = [
  { id: 'a', name: 'work', input: { ms: 30, write: 'x' } },
  { id: 'b', name: 'work', input: { ms: 10, write: 'x' } },
  { id: 'c', name: 'work', input: { ms: 5, read: 'y' } },
];

type Source = 'dispatch' | 'run' | 'dispatchStream' | 'runStream' | 'openTurn';

describe.each<[DispatchMode, Source]>([
  ['sequential', 'dispatch'],
  ['parallel', 'dispatch'],
  ['eager', 'dispatch'],
  ['parallel', 'run'],
  ['eager', 'dispatchStream'],
  ['sequential', 'runStream'],
  ['parallel', 'openTurn'],
])('instrumentation, %s mode, %s', (mode, source) => {
  it('wraps the batch and each attempt; the tool runs inside its attempt', async () => {
    const instrumentation = new RecordingInstrumentation();
    const { dispatcher, ranInside } = setUp(instrumentation, { mode, maxConcurrency: 4 });
    let done: { status: string };
    if (source === 'dispatch') done = trackPromise(dispatcher.dispatch(calls));
    else if (source === 'run') done = record(dispatcher.run(calls));
    else if (source === 'dispatchStream')
      done = trackPromise(dispatcher.dispatchStream(from(calls)));
    else if (source === 'runStream') done = record(dispatcher.runStream(from(calls)));
    else {
      // Each call starts as it is run, the write `a` first, as the expected lines say.
      const turn = dispatcher.openTurn({ whileStreaming: 'all' });
      for (const call of calls) void turn.run(call);
      done = trackPromise(turn.close());
    }
    // The batch starts synchronously, inside the caller's own stack.
    expect(instrumentation.lines[0]).toMatch(/^batch /);
    await vi.advanceTimersByTimeAsync(100);
    expect(['resolved', 'complete']).toContain(done.status);
    expect(ranInside).toEqual({ 'a#1': 'a#1', 'b#1': 'b#1', 'c#1': 'c#1' });
    const streamed = source !== 'dispatch' && source !== 'run';
    const sequential = mode === 'sequential';
    const shownMode = streamed && mode === 'parallel' ? 'eager' : mode;
    const expected = sequential
      ? [
          `batch sequential ${streamed ? (source === 'openTurn' ? 'turn' : 'stream') : 'batch'} planner=undefined calls=${streamed ? 'undefined' : 3} cap=${streamed ? 1 : 3}`,
          'start a#1 @0 index=0 waitedFor=[]',
          'granted a#1 @0 key=0 fleet=0 token=undefined',
          'end a#1 @30 ok kind=undefined retried=false "done a"',
          'start b#1 @30 index=1 waitedFor=[a]',
          'granted b#1 @30 key=30 fleet=0 token=undefined',
          'end b#1 @40 ok kind=undefined retried=false "done b"',
          'start c#1 @40 index=2 waitedFor=[b]',
          'granted c#1 @40 key=40 fleet=0 token=undefined',
          'end c#1 @45 ok kind=undefined retried=false "done c"',
          `batch-end @45 ok calls=3 waves=${streamed ? undefined : 3}`,
        ]
      : [
          `batch ${shownMode} ${streamed ? (source === 'openTurn' ? 'turn' : 'stream') : 'batch'} planner=${shownMode === 'parallel' ? 'greedy' : undefined} calls=${streamed ? 'undefined' : 3} cap=${streamed ? 4 : 3}`,
          'start a#1 @0 index=0 waitedFor=[]',
          'granted a#1 @0 key=0 fleet=0 token=undefined',
          'start c#1 @0 index=2 waitedFor=[]',
          'granted c#1 @0 key=0 fleet=0 token=undefined',
          'end c#1 @5 ok kind=undefined retried=false "done c"',
          'end a#1 @30 ok kind=undefined retried=false "done a"',
          'start b#1 @30 index=1 waitedFor=[a]',
          'granted b#1 @30 key=30 fleet=0 token=undefined',
          'end b#1 @40 ok kind=undefined retried=false "done b"',
          `batch-end @40 ok calls=3 waves=${shownMode === 'parallel' ? 2 : undefined}`,
        ];
    expect(instrumentation.lines).toEqual(expected);
    expect(instrumentation.batchEnds).toBe(1);
  });
});

describe('instrumentation: attempts that do not end well', () => {
  it('a cancel ends the running attempt as cancelled, then the batch', async () => {
    const instrumentation = new RecordingInstrumentation();
    const { dispatcher } = setUp(instrumentation, { mode: 'eager' });
    const controller = new AbortController();
    const done = trackPromise(dispatcher.dispatch(calls, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    await vi.advanceTimersByTimeAsync(100);
    expect(done.status).toBe('rejected');
    expect(instrumentation.lines.slice(-3)).toEqual([
      'end c#1 @5 ok kind=undefined retried=false "done c"',
      'end a#1 @10 cancelled kind=undefined retried=false',
      'batch-end @10 cancelled calls=3 waves=undefined cancelled',
    ]);
    expect(instrumentation.batchEnds).toBe(1);
  });

  it('unsubscribing from run() ends the attempts in flight and the batch', async () => {
    const instrumentation = new RecordingInstrumentation();
    const { dispatcher } = setUp(instrumentation, { mode: 'parallel' });
    const subscription = dispatcher.run(calls).subscribe();
    await vi.advanceTimersByTimeAsync(2);
    subscription.unsubscribe();
    expect(instrumentation.lines.slice(-3)).toEqual([
      'end a#1 @2 cancelled kind=undefined retried=false',
      'end c#1 @2 cancelled kind=undefined retried=false',
      'batch-end @2 cancelled calls=3 waves=2 cancelled',
    ]);
  });

  it('a timed-out attempt ends as an error of kind timeout; a retried one says so', async () => {
    const instrumentation = new RecordingInstrumentation();
    const { dispatcher } = setUp(instrumentation, {
      mode: 'eager',
      timeoutMs: 20,
      recovery: { strategy: retryOnce(7) },
    });
    const done = trackPromise(
      dispatcher.dispatch([
        { id: 'slow', name: 'work', input: { ms: 50 } },
        { id: 'flaky', name: 'work', input: { ms: 1, fail: 1 } },
      ]),
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(done.status).toBe('resolved');
    expect(instrumentation.lines.slice(1)).toEqual([
      'start slow#1 @0 index=0 waitedFor=[]',
      'granted slow#1 @0 key=0 fleet=0 token=undefined',
      'start flaky#1 @0 index=1 waitedFor=[]',
      'granted flaky#1 @0 key=0 fleet=0 token=undefined',
      'end flaky#1 @1 error kind=tool_error retried=true "Tool `work` failed: flaky"',
      'start flaky#2 @8 index=1 waitedFor=[]',
      'granted flaky#2 @8 key=0 fleet=0 token=undefined',
      'end flaky#2 @9 ok kind=undefined retried=false "done flaky"',
      'end slow#1 @20 error kind=timeout retried=false "Tool `work` timed out after 20 ms"',
      'batch-end @20 ok calls=2 waves=undefined',
    ]);
  });

  it('granted reports the fleet wait and the fencing token', async () => {
    const instrumentation = new RecordingInstrumentation();
    const coordinator: Coordinator = {
      acquire: () =>
        new Promise<CoordinationGrant>((resolve) =>
          setTimeout(
            () =>
              resolve({
                fencingToken: 42,
                lost: new AbortController().signal,
                release: () => Promise.resolve(),
              }),
            15,
          ),
        ),
    };
    const { dispatcher } = setUp(instrumentation, { mode: 'eager', coordinator });
    const done = trackPromise(dispatcher.dispatch(calls.slice(0, 2)));
    await vi.advanceTimersByTimeAsync(200);
    expect(done.status).toBe('resolved');
    expect(instrumentation.lines.filter((line) => line.startsWith('granted'))).toEqual([
      'granted a#1 @15 key=0 fleet=15 token=42',
      'granted b#1 @60 key=45 fleet=15 token=42',
    ]);
  });
});

/** Dispatches `batch` with a recording instrumentation and waits until it has resolved. */
async function recordDispatch(options: Partial<DispatcherOptions>, batch: ToolCall[]) {
  const instrumentation = new RecordingInstrumentation();
  const { dispatcher, ranInside } = setUp(instrumentation, options);
  const done = trackPromise(dispatcher.dispatch(batch));
  await vi.advanceTimersByTimeAsync(100);
  expect(done.status).toBe('resolved');
  return { lines: instrumentation.lines, ranInside };
}

describe('instrumentation: what a call waited for, and calls never run', () => {
  it('waves: a call waited for the calls of earlier waves it conflicts with, not the rules of eager mode', async () => {
    // b is not concurrency-safe: greedy waves run a and c first (wave 0), then b (wave 1); c,
    // though after b in model order, did not wait for b (it ran before it).
    const { lines } = await recordDispatch({ mode: 'parallel' }, [
      { id: 'a', name: 'work', input: { ms: 10 } },
      { id: 'b', name: 'barrier', input: { ms: 5 } },
      { id: 'c', name: 'work', input: { ms: 20 } },
    ]);
    expect(lines.filter((line) => line.startsWith('start'))).toEqual([
      'start a#1 @0 index=0 waitedFor=[]',
      'start c#1 @0 index=2 waitedFor=[]',
      'start b#1 @20 index=1 waitedFor=[a,c]',
    ]);
  });

  it('a call skipped by the failure policy is an attempt that ended as an error of kind skipped, never granted or run', async () => {
    // a fails; b writes the key a writes, so it depends on a and is skipped; c is independent.
    const { lines, ranInside } = await recordDispatch(
      { mode: 'eager', onFailure: 'skip-dependents' },
      [
        { id: 'a', name: 'work', input: { ms: 10, write: 'x', fail: 1 } },
        { id: 'b', name: 'work', input: { ms: 5, write: 'x' } },
        { id: 'c', name: 'work', input: { ms: 5, read: 'y' } },
      ],
    );
    expect(lines.slice(1)).toEqual([
      'start a#1 @0 index=0 waitedFor=[]',
      'granted a#1 @0 key=0 fleet=0 token=undefined',
      'start c#1 @0 index=2 waitedFor=[]',
      'granted c#1 @0 key=0 fleet=0 token=undefined',
      'end c#1 @5 ok kind=undefined retried=false "done c"',
      'end a#1 @10 error kind=tool_error retried=false "Tool `work` failed: flaky"',
      'start b#1 @10 index=1 waitedFor=[a]',
      'end b#1 @10 error kind=skipped retried=false "Call `b` (`work`) did not run: it depends on call `a` (`work`), which failed"',
      'batch-end @10 ok calls=3 waves=undefined',
    ]);
    expect(Object.keys(ranInside).sort()).toEqual(['a#1', 'c#1']);
  });

  it("waves, 'stop': the calls of a later wave are attempts skipped at once, waiting for the earlier wave", async () => {
    const { lines } = await recordDispatch({ mode: 'parallel', onFailure: 'stop' }, [
      { id: 'a', name: 'work', input: { ms: 10, write: 'x', fail: 1 } },
      { id: 'b', name: 'work', input: { ms: 5, write: 'x' } },
    ]);
    expect(lines.slice(1)).toEqual([
      'start a#1 @0 index=0 waitedFor=[]',
      'granted a#1 @0 key=0 fleet=0 token=undefined',
      'end a#1 @10 error kind=tool_error retried=false "Tool `work` failed: flaky"',
      'start b#1 @10 index=1 waitedFor=[a]',
      'end b#1 @10 error kind=skipped retried=false "Call `b` (`work`) did not run: call `a` (`work`) failed first, and the failure policy is \'stop\'"',
      'batch-end @10 ok calls=2 waves=2',
    ]);
  });
});
