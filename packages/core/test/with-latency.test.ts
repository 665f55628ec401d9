import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fnTool, ToolRegistry } from '../src/index.js';
import { withLatency } from '../src/testing/index.js';

describe('withLatency', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const registry = new ToolRegistry().add(
    fnTool<{ path: string }>({
      name: 'read',
      description: 'read',
      concurrencySafe: true,
      access: ({ path }) => [{ key: `fs:/${path}`, mode: 'read' }],
      execute: ({ path }) => `content of ${path}`,
    }),
  );

  it('waits the injected latency, then runs the tool', async () => {
    const slow = withLatency({
      registry,
      latencyMs: (_name, input) => ((input as { path: string }).path === 'a' ? 100 : 0),
    });
    const signal = new AbortController().signal;
    let answer: unknown;
    void Promise.resolve(
      slow.get('read')?.execute({ path: 'a' }, { toolCallId: 'c', signal, attempt: 1 }),
    ).then((value) => {
      answer = value;
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answer).toBe('content of a');
  });

  it('keeps the declarations, so plans do not change', () => {
    const slow = withLatency({ registry, latencyMs: () => 50 });
    const calls = [{ id: '1', name: 'read', input: { path: 'a' } }];
    expect(slow.toPlanNodes(calls)).toEqual(registry.toPlanNodes(calls));
    expect(slow.names()).toEqual(['read']);
  });

  it('keeps `idempotent` and `runs`, so a durable turn and the schedule treat the calls alike', () => {
    const retried = new ToolRegistry().add(
      fnTool({
        name: 'put',
        description: 'put',
        idempotent: true,
        runs: 'after-previous',
        execute: () => 'put',
      }),
    );
    const put = withLatency({ registry: retried, latencyMs: () => 5 }).get('put');
    expect(put?.idempotent).toBe(true);
    expect(put?.runs).toBe('after-previous');
    expect(withLatency({ registry, latencyMs: () => 5 }).get('read')?.idempotent).toBeUndefined();
  });

  it("gives each call its own latency through the call's context", async () => {
    const latency = new Map([
      ['first', 30],
      ['second', 10],
    ]);
    const slow = withLatency({
      registry,
      latencyMs: (_name, _input, context) => latency.get(context.toolCallId) ?? 0,
    });
    const signal = new AbortController().signal;
    const done: string[] = [];
    for (const id of ['first', 'second']) {
      void Promise.resolve(
        slow.get('read')?.execute({ path: id }, { toolCallId: id, signal, attempt: 1 }),
      ).then(() => done.push(id));
    }
    await vi.advanceTimersByTimeAsync(10);
    expect(done).toEqual(['second']);
    await vi.advanceTimersByTimeAsync(20);
    expect(done).toEqual(['second', 'first']);
  });

  it('stops waiting when the call is aborted', async () => {
    const slow = withLatency({ registry, latencyMs: () => 10_000 });
    const controller = new AbortController();
    const run = Promise.resolve(
      slow
        .get('read')
        ?.execute({ path: 'a' }, { toolCallId: 'c', signal: controller.signal, attempt: 1 }),
    );
    await vi.advanceTimersByTimeAsync(50);
    controller.abort(new Error('cancelled'));
    await expect(run).rejects.toThrow('cancelled');
  });
});
