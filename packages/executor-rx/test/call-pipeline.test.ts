import { fnTool, type ToolContext, ToolRegistry } from '@toolwaves/core';
import { MockTool, trackPromise } from '@toolwaves/core/testing';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  type DispatchError,
  Dispatcher,
  type PostHookContext,
  type PreHook,
  type PreHookContext,
} from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { ends, record, starts } from './recording.js';
import { skipAndKeep } from './recovery-strategies.js';
import { call } from './tool-call.js';

useFakeClock();

describe('input validation and unknown tools', () => {
  it('lists the registered names, or says there are none', async () => {
    const empty = new Dispatcher({ registry: new ToolRegistry() });
    const [result] = await empty.dispatch([call('x', 'read_file')]);
    expect(result).toEqual({
      toolCallId: 'x',
      toolName: 'read_file',
      content: 'Unknown tool `read_file`; no tools are registered',
      isError: true,
      durationMs: 0,
    });
  });

  it('names every wrong field and does not run the tool', async () => {
    const typed = new MockTool({
      name: 'write',
      input: z.object({ path: z.string(), content: z.string(), mode: z.number().optional() }),
    });
    const dispatcher = new Dispatcher({ registry: new ToolRegistry().add(typed) });
    const [result] = await dispatcher.dispatch([call('w', 'write', { path: 1, mode: 'x' })]);
    expect(result?.isError).toBe(true);
    expect(result?.content).toBe(
      'Invalid input for tool `write`: `path`: expected string, received number; `content`: expected string, received undefined; `mode`: expected number, received string',
    );
    expect(typed.calls).toEqual([]);
  });

  it('hands the tool and the hooks the parsed input', async () => {
    const seen: unknown[] = [];
    const tool = fnTool({
      name: 'paged',
      description: 'pages',
      input: z.object({ page: z.number().default(1) }),
      execute: (input) => {
        seen.push(input);
        return `page ${input.page}`;
      },
    });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(tool),
      hooks: {
        pre: [
          ({ input }) => {
            seen.push(input);
            return undefined;
          },
        ],
      },
    });
    const [result] = await dispatcher.dispatch([call('p', 'paged', {})]);
    expect(result?.content).toBe('page 1');
    expect(seen).toEqual([{ page: 1 }, { page: 1 }]);
  });

  it('takes synchronous tools, synchronous throws and malformed answers', async () => {
    const registry = new ToolRegistry()
      .add(fnTool({ name: 'sync', description: 'answers now', execute: () => 'now' }))
      .add(
        fnTool({
          name: 'boom',
          description: 'throws',
          execute: () => {
            throw new TypeError('bad state');
          },
        }),
      )
      .add(
        fnTool({
          name: 'odd',
          description: 'answers a number',
          execute: () => 42 as unknown as string,
        }),
      );
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const results = await dispatcher.dispatch([
      call('1', 'sync'),
      call('2', 'boom'),
      call('3', 'odd'),
    ]);
    expect(results.map((r) => [r.content, r.isError])).toEqual([
      ['now', false],
      ['Tool `boom` failed: bad state', true],
      ['Tool `odd` returned `42` (number), not a string or { content }', true],
    ]);
  });
});

describe('timeouts', () => {
  it('ends the attempt as a soft error and aborts the tool signal', async () => {
    let context: ToolContext | undefined;
    const slow = new MockTool({
      name: 'slow',
      delayMs: 1_000,
      result: (_input, ctx) => {
        context = ctx;
        return 'late';
      },
    });
    const signals: AbortSignal[] = [];
    const spy = fnTool({
      name: 'spy',
      description: 'never answers',
      execute: (_input, ctx) => {
        signals.push(ctx.signal);
        return new Promise<string>(() => undefined);
      },
    });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(slow).add(spy),
      timeoutMs: 100,
    });
    const done = trackPromise(dispatcher.dispatch([call('s', 'slow'), call('p', 'spy')]));
    await vi.advanceTimersByTimeAsync(99);
    expect(done.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(slow.calls[0]?.outcome).toBe('aborted');
    expect(slow.calls[0]?.endedAt).toBe(100);
    expect(context).toBeUndefined();
    expect(signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(signals[0]?.aborted).toBe(true);
    expect((signals[0]?.reason as Error | undefined)?.name).toBe('TimeoutError');
    expect(done.status).toBe('resolved');
    expect(done.value?.map((r) => [r.content, r.isError, r.durationMs])).toEqual([
      ['Tool `slow` timed out after 100 ms', true, 100],
      ['Tool `spy` timed out after 100 ms', true, 100],
    ]);
    expect(dispatcher.health.stats('slow')).toEqual({ successes: 0, failures: 1, latencyMs: 100 });
  });

  it('lets a call that answers in time through', async () => {
    const quick = new MockTool({ name: 'quick', delayMs: 99 });
    const dispatcher = new Dispatcher({ registry: new ToolRegistry().add(quick), timeoutMs: 100 });
    const done = trackPromise(dispatcher.dispatch([call('q', 'quick')]));
    await vi.advanceTimersByTimeAsync(99);
    expect(done.value?.[0]?.content).toBe('quick ok');
    expect(quick.calls[0]?.outcome).toBe('ok');
  });
});

describe('pre hooks', () => {
  const slowTool = () => new MockTool({ name: 'slow', delayMs: 1_000, concurrencySafe: true });

  it('a block is a soft error for that call; the others run', async () => {
    const tool = new MockTool({ name: 'm', concurrencySafe: true });
    const contexts: PreHookContext[] = [];
    const block: PreHook = (context) => {
      contexts.push(context);
      return (context.input as { id: number }).id === 1
        ? { action: 'block', reason: 'not today' }
        : { action: 'allow' };
    };
    const post = vi.fn();
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(tool),
      mode: 'parallel',
      hooks: { pre: [block], post: [post] },
    });
    const run = record(dispatcher.run([call('a', 'm', { id: 0 }), call('b', 'm', { id: 1 })]));
    await vi.advanceTimersByTimeAsync(0);
    expect(run.status).toBe('complete');
    const end = run.events.at(-1);
    expect(end?.type === 'batch-end' && end.results.map((r) => [r.content, r.isError])).toEqual([
      ['m ok', false],
      ['Blocked by a pre hook: not today', true],
    ]);
    expect(tool.calls.map((c) => c.toolCallId)).toEqual(['a']);
    expect(contexts.map((c) => [c.call.id, c.index, c.tool.name, c.attempt])).toEqual([
      ['a', 0, 'm', 1],
      ['b', 1, 'm', 1],
    ]);
    expect(post).toHaveBeenCalledTimes(1);
    // Post events arrive by completion: the block is immediate, the tool answers a tick later.
    expect(ends(run.events).map((e) => [e.toolCallId, e.outcome])).toEqual([
      ['b', 'error'],
      ['a', 'ok'],
    ]);
  });

  it('an abort fails the batch: siblings in flight stop, queued calls never start', async () => {
    const slow = slowTool();
    const signals: AbortSignal[] = [];
    const watcher: PreHook = ({ signal }) => {
      signals.push(signal);
      return undefined;
    };
    const guard: PreHook = ({ call: c }) =>
      c.id === 'b'
        ? new Promise((resolve) =>
            setTimeout(() => resolve({ action: 'abort', reason: 'policy says no' }), 50),
          )
        : undefined;
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(slow),
      mode: 'parallel',
      maxConcurrency: 2,
      hooks: { pre: [watcher, guard] },
    });
    const run = record(dispatcher.run([call('a', 'slow'), call('b', 'slow'), call('c', 'slow')]));
    await vi.advanceTimersByTimeAsync(49);
    expect(run.status).toBe('running');
    await vi.advanceTimersByTimeAsync(1);
    expect(run.status).toBe('error');
    const error = run.error as DispatchError;
    expect(error.code).toBe('aborted');
    expect(error.message).toBe('A pre hook aborted the batch at call `b` (`slow`): policy says no');
    expect(error.toolCallId).toBe('b');
    expect(ends(run.events).map((e) => [e.toolCallId, e.outcome, e.durationMs])).toEqual([
      ['b', 'hard-error', 50],
      ['a', 'aborted', 50],
    ]);
    expect(starts(run.events).map((e) => e.toolCallId)).toEqual(['a', 'b']);
    expect(slow.calls.map((c) => [c.toolCallId, c.outcome, c.endedAt])).toEqual([
      ['a', 'aborted', 50],
    ]);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
    expect(run.events.some((e) => e.type === 'batch-end' || e.type === 'wave-end')).toBe(false);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(slow.calls).toHaveLength(1);
  });

  it('a hook that throws or answers nonsense blocks the call', async () => {
    const tool = new MockTool({ name: 'm' });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(tool),
      hooks: {
        pre: [
          ({ call: c }) => {
            if (c.id === 'a') throw new Error('hook bug');
            return c.id === 'b' ? ({ action: 'maybe' } as never) : undefined;
          },
          ({ call: c }) => (c.id === 'c' ? Promise.reject(new Error('async hook bug')) : undefined),
        ],
      },
    });
    const results = await dispatcher.dispatch([call('a', 'm'), call('b', 'm'), call('c', 'm')]);
    expect(results.map((r) => r.content)).toEqual([
      'Pre hook 0 threw: hook bug',
      "Pre hook 0 returned `{\"action\":\"maybe\"}` (object), not { action: 'allow' | 'block' | 'abort' }",
      'Pre hook 1 threw: async hook bug',
    ]);
    expect(tool.calls).toEqual([]);
  });
});

describe('post hooks', () => {
  it('see input, output, isError and duration of every attempt that ran', async () => {
    const tool = new MockTool({
      name: 'm',
      delayMs: 30,
      result: (input) => ({ content: `got ${String(input)}`, isError: input === 'bad' }),
    });
    const seen: PostHookContext[] = [];
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(tool),
      hooks: {
        post: [
          (context) => {
            seen.push(context);
          },
          () => new Promise<void>((resolve) => setTimeout(resolve, 5)),
        ],
      },
    });
    const done = trackPromise(dispatcher.dispatch([call('a', 'm', 'good'), call('b', 'm', 'bad')]));
    await vi.advanceTimersByTimeAsync(70);
    expect(done.status).toBe('resolved');
    expect(
      seen.map((c) => [c.call.id, c.toolName, c.input, c.content, c.isError, c.durationMs]),
    ).toEqual([
      ['a', 'm', 'good', 'got good', false, 30],
      ['b', 'm', 'bad', 'got bad', true, 30],
    ]);
    // The async post hook holds the call (5 ms) before the next one starts.
    expect(tool.calls.map((c) => c.startedAt)).toEqual([0, 35]);
  });

  it('a post hook that throws turns the answer into a soft error', async () => {
    const tool = new MockTool({ name: 'm' });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(tool),
      hooks: {
        post: [
          () => {
            throw new Error('audit log down');
          },
        ],
      },
    });
    const [result] = await dispatcher.dispatch([call('a', 'm')]);
    expect(result).toMatchObject({ content: 'Post hook 0 threw: audit log down', isError: true });
    expect(dispatcher.health.stats('m')).toMatchObject({ successes: 1, failures: 0 });
  });

  it('a post hook that rejects later stops the hooks after it and hands recovery its error', async () => {
    const tool = new MockTool({ name: 'm' });
    const outage = new Error('audit log down');
    const after = vi.fn();
    const skipping = skipAndKeep();
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(tool),
      hooks: {
        post: [() => Promise.resolve(), () => Promise.reject(outage), after],
      },
      recovery: { strategy: skipping.strategy },
    });
    const [result] = await dispatcher.dispatch([call('a', 'm')]);
    expect(result).toMatchObject({ content: 'Post hook 1 threw: audit log down', isError: true });
    expect(after).not.toHaveBeenCalled();
    expect(skipping.failures.map((f) => [f.kind, f.message, f.error, f.attempt])).toEqual([
      ['hook_failed', 'Post hook 1 threw: audit log down', outage, 1],
    ]);
    expect(dispatcher.health.stats('m')).toMatchObject({ successes: 1, failures: 0 });
  });
});
