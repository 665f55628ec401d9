import { ToolRegistry } from '@toolwaves/core';
import { MockTool, trackPromise } from '@toolwaves/core/testing';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  basicReflector,
  type DispatchError,
  Dispatcher,
  exponentialBackoff,
  MAX_RETRIES,
  type RecoveryStrategy,
  type Reflector,
  type SoftFailure,
} from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { ends, record } from './recording.js';
import { call } from './tool-call.js';

useFakeClock();

const failing = () => new MockTool({ name: 'flaky', error: new Error('busy') });

describe('exponentialBackoff', () => {
  it('waits 100, 200, 400, 800, 1600 ms, then the 6th failure is recovery_exhausted', async () => {
    const flaky = failing();
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(flaky),
      recovery: { strategy: exponentialBackoff() },
    });
    expect(MAX_RETRIES).toBe(5);
    const done = trackPromise(dispatcher.dispatch([call('a', 'flaky')]));
    await vi.advanceTimersByTimeAsync(3_099);
    expect(done.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(done.status).toBe('rejected');
    expect(flaky.calls.map((c) => c.startedAt)).toEqual([0, 100, 300, 700, 1_500, 3_100]);
    const error = done.error as DispatchError;
    expect([error.code, error.toolName, error.toolCallId, error.attempts]).toEqual([
      'recovery_exhausted',
      'flaky',
      'a',
      6,
    ]);
    expect((error.cause as Error).message).toBe('busy');
  });

  it('caps the delay and skips what the reflector says cannot be retried', async () => {
    const strategy = exponentialBackoff({ baseMs: 100, factor: 3, capMs: 500 });
    const failure = (attempt: number, kind: SoftFailure['kind'] = 'timeout'): SoftFailure => ({
      kind,
      message: 'x',
      call: call('a', 't'),
      index: 0,
      toolName: 't',
      input: {},
      attempt,
    });
    const reflector = basicReflector();
    const decide = async (f: SoftFailure) => strategy.decide(await reflector.reflect(f));
    expect(await decide(failure(1))).toEqual({ action: 'retry', delayMs: 100 });
    expect(await decide(failure(2))).toEqual({ action: 'retry', delayMs: 300 });
    expect(await decide(failure(3))).toEqual({ action: 'retry', delayMs: 500 });
    for (const kind of ['unknown_tool', 'invalid_input', 'blocked', 'hook_failed'] as const) {
      expect(await decide(failure(1, kind))).toEqual({ action: 'skip' });
    }
    for (const kind of ['tool_error', 'tool_reported', 'timeout'] as const) {
      expect((await decide(failure(1, kind))).action).toBe('retry');
    }
  });

  it('leaves a call that cannot succeed as it stands alone: no retry for an unknown tool', async () => {
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(failing()),
      recovery: { strategy: exponentialBackoff() },
    });
    const run = record(dispatcher.run([call('a', 'missing')]));
    await vi.advanceTimersByTimeAsync(0);
    expect(ends(run.events).map((e) => [e.attempt, e.outcome, e.content])).toEqual([
      [1, 'error', 'Unknown tool `missing`; registered tools: `flaky`'],
    ]);
  });
});

describe('recovery decisions', () => {
  it('retries with the corrected input a reflector proposes', async () => {
    const typed = new MockTool({
      name: 'read',
      input: z.object({ path: z.string() }),
      result: (input) => `read ${(input as { path: string }).path}`,
    });
    const reflector: Reflector = {
      reflect: async (failure) =>
        failure.kind === 'invalid_input'
          ? { failure, retryable: true, correction: { input: { path: String(failure.input) } } }
          : { failure, retryable: false },
    };
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(typed),
      recovery: { reflector, strategy: exponentialBackoff({ baseMs: 0 }) },
    });
    const run = record(dispatcher.run([call('a', 'read', 'notes.txt')]));
    await vi.advanceTimersByTimeAsync(0);
    expect(run.status).toBe('complete');
    expect(ends(run.events).map((e) => [e.attempt, e.outcome, e.content])).toEqual([
      [1, 'retry', 'Invalid input for tool `read`: `(input)`: expected object, received string'],
      [2, 'ok', 'read notes.txt'],
    ]);
    const end = run.events.at(-1);
    expect(end?.type === 'batch-end' && end.results[0]).toMatchObject({
      toolCallId: 'a',
      toolName: 'read',
      content: 'read notes.txt',
      isError: false,
    });
  });

  it('retries with another tool, and the result names the tool that answered', async () => {
    const strategy: RecoveryStrategy = {
      name: 'redirect',
      decide: ({ failure }) =>
        failure.kind === 'unknown_tool'
          ? { action: 'retry', delayMs: 10, correction: { toolName: 'read_file' } }
          : { action: 'skip' },
    };
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(new MockTool({ name: 'read_file' })),
      recovery: { strategy },
    });
    const run = record(dispatcher.run([call('a', 'readFile')]));
    await vi.advanceTimersByTimeAsync(10);
    expect(ends(run.events).map((e) => [e.toolName, e.attempt, e.outcome, e.waitMs])).toEqual([
      ['readFile', 1, 'retry', 0],
      ['read_file', 2, 'ok', 10],
    ]);
    const end = run.events.at(-1);
    expect(end?.type === 'batch-end' && end.results[0]?.toolName).toBe('read_file');
  });

  it('skip on the first attempt keeps the soft error as it is', async () => {
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(failing()),
      recovery: { strategy: { name: 'never', decide: () => ({ action: 'skip' }) } },
    });
    const [result] = await dispatcher.dispatch([call('a', 'flaky')]);
    expect(result?.content).toBe('Tool `flaky` failed: busy');
  });

  it('fail is a hard error: the batch rejects and siblings in flight are aborted', async () => {
    const slow = new MockTool({ name: 'slow', delayMs: 1_000, concurrencySafe: true });
    const flaky = new MockTool({
      name: 'flaky',
      delayMs: 20,
      concurrencySafe: true,
      error: new Error('corrupt'),
    });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(slow).add(flaky),
      mode: 'parallel',
      recovery: {
        strategy: {
          name: 'strict',
          decide: () => ({ action: 'fail', reason: 'data is corrupt' }),
        },
      },
    });
    const run = record(dispatcher.run([call('s', 'slow'), call('f', 'flaky')]));
    await vi.advanceTimersByTimeAsync(20);
    expect(run.status).toBe('error');
    const error = run.error as DispatchError;
    expect(error.code).toBe('recovery_exhausted');
    expect(error.message).toBe(
      'Recovery strategy `strict` failed the batch at call `f` (`flaky`) after 1 attempt: data is corrupt; last error: Tool `flaky` failed: corrupt',
    );
    expect(ends(run.events).map((e) => [e.toolCallId, e.outcome])).toEqual([
      ['f', 'hard-error'],
      ['s', 'aborted'],
    ]);
    expect(slow.calls[0]?.outcome).toBe('aborted');
  });

  it('a strategy or reflector that throws, or answers nonsense, is a hard error', async () => {
    const cases: [RecoveryStrategy, Reflector | undefined, string, string][] = [
      [
        {
          name: 'broken',
          decide: () => {
            throw new Error('oops');
          },
        },
        undefined,
        'recovery_exhausted',
        'Recovery strategy `broken` threw at call `a` (`flaky`) after 1 attempt: oops',
      ],
      [
        exponentialBackoff(),
        { reflect: () => Promise.reject(new Error('model offline')) },
        'recovery_exhausted',
        'Recovery reflector threw at call `a` (`flaky`) after 1 attempt: model offline',
      ],
      [
        { name: 'vague', decide: () => ({ action: 'later' }) as never },
        undefined,
        'invalid_config',
        "Expected recovery strategy `vague` to decide { action: 'retry' | 'skip' | 'fail' }, got `{\"action\":\"later\"}` (object)",
      ],
      [
        { name: 'negative', decide: () => ({ action: 'retry', delayMs: -1 }) },
        undefined,
        'invalid_config',
        'Expected `delayMs` of the retry decided by recovery strategy `negative` to be a finite number from 0 and up, got `-1` (number)',
      ],
    ];
    for (const [strategy, reflector, code, message] of cases) {
      const dispatcher = new Dispatcher({
        registry: new ToolRegistry().add(failing()),
        recovery: reflector === undefined ? { strategy } : { strategy, reflector },
      });
      await expect(dispatcher.dispatch([call('a', 'flaky')])).rejects.toMatchObject({
        code,
        message,
      });
    }
  });

  it('retries time-outs, each attempt with a fresh signal and its own events', async () => {
    const signals: AbortSignal[] = [];
    const slowThenFast = new MockTool({
      name: 'st',
      delayMs: 0,
      result: (_input, context) => {
        signals.push(context.signal);
        return 'ok';
      },
    });
    const hanging = new MockTool({
      name: 'hang',
      delayMs: (input) => (input as { ms: number }).ms,
    });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(slowThenFast).add(hanging),
      timeoutMs: 50,
      recovery: {
        strategy: {
          name: 'faster',
          decide: ({ failure }) =>
            failure.kind === 'timeout'
              ? { action: 'retry', delayMs: 5, correction: { input: { ms: 10 } } }
              : { action: 'skip' },
        },
      },
    });
    const run = record(dispatcher.run([call('h', 'hang', { ms: 500 }), call('s', 'st')]));
    await vi.advanceTimersByTimeAsync(65);
    expect(run.status).toBe('complete');
    expect(ends(run.events).map((e) => [e.toolCallId, e.attempt, e.outcome, e.durationMs])).toEqual(
      [
        ['h', 1, 'retry', 50],
        ['h', 2, 'ok', 10],
        ['s', 1, 'ok', 0],
      ],
    );
    expect(hanging.calls.map((c) => [c.startedAt, c.endedAt, c.outcome])).toEqual([
      [0, 50, 'aborted'],
      [55, 65, 'ok'],
    ]);
    expect(signals[0]?.aborted).toBe(false);
  });
});
