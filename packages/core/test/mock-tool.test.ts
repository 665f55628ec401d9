import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MockTool } from '../src/testing/index.js';

const context = (id: string, signal = new AbortController().signal) => ({
  toolCallId: id,
  signal,
  attempt: 1,
});

describe('MockTool under fake timers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers after its delay and records start, end and the live count', async () => {
    const mock = new MockTool({ name: 'slow', delayMs: 100, result: 'done' });
    const a = mock.execute({}, context('a'));
    const b = mock.execute({}, context('b'));
    expect(mock.live).toBe(2);
    await vi.advanceTimersByTimeAsync(99);
    expect(mock.calls.map((c) => c.outcome)).toEqual(['running', 'running']);
    await vi.advanceTimersByTimeAsync(1);
    await expect(a).resolves.toBe('done');
    await expect(b).resolves.toBe('done');
    expect(mock.maxLive).toBe(2);
    expect(mock.live).toBe(0);
    expect(mock.calls.map((c) => (c.endedAt ?? 0) - c.startedAt)).toEqual([100, 100]);
  });

  it('stops when its signal aborts', async () => {
    const mock = new MockTool({ name: 'slow', delayMs: 10_000 });
    const controller = new AbortController();
    const run = mock.execute({}, context('a', controller.signal));
    await vi.advanceTimersByTimeAsync(50);
    controller.abort(new Error('stop'));
    await expect(run).rejects.toThrow('stop');
    expect(mock.calls[0]?.outcome).toBe('aborted');
    expect(mock.calls[0]?.endedAt).toBe((mock.calls[0]?.startedAt ?? 0) + 50);
  });

  it('throws its error, answers per input, and declares per input', async () => {
    const mock = new MockTool({
      name: 'm',
      error: (input) => (input === 'bad' ? new Error('nope') : undefined),
      result: (input) => ({ content: `got ${String(input)}`, isError: input === 'soft' }),
      concurrencySafe: (input) => input !== 'bad',
      resourceKey: (input) => `k:${String(input)}`,
    });
    await expect(mock.execute('bad', context('1'))).rejects.toThrow('nope');
    await expect(mock.execute('soft', context('2'))).resolves.toEqual({
      content: 'got soft',
      isError: true,
    });
    expect(mock.calls.map((c) => c.outcome)).toEqual(['threw', 'error']);
    expect(mock.isConcurrencySafe('bad')).toBe(false);
    expect(mock.resourceKey('x')).toBe('k:x');
  });
});
