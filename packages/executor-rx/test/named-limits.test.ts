import {
  abortableDelay,
  type CoordinationRequest,
  type Coordinator,
  fnTool,
  noCoordination,
  type Tool,
  type ToolCall,
  ToolRegistry,
} from '@toolwaves/core';
import { describe, expect, it, vi } from 'vitest';
import { DispatchError, type DispatchEvent, Dispatcher } from '../src/index.js';
import { fakeNow, useFakeClock } from './fake-clock.js';

useFakeClock();

/** A tool that waits `ms` on the fake clock and notes when it ran. */
function slow(options: {
  name: string;
  ms: number;
  limits?: Tool<{ i: number }>['limits'];
  limitsIfConfigured?: Record<string, number>;
  ran?: { name: string; i: number; start: number; end: number }[];
}): Tool<{ i: number }> {
  const built = fnTool<{ i: number }>({
    name: options.name,
    description: options.name,
    concurrencySafe: true,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    execute: async ({ i }, context) => {
      const start = fakeNow();
      await abortableDelay(options.ms, context.signal);
      options.ran?.push({ name: options.name, i, start, end: fakeNow() });
      return `${options.name} ${i}`;
    },
  });
  return options.limitsIfConfigured === undefined
    ? built
    : { ...built, limitsIfConfigured: options.limitsIfConfigured };
}

const calls = (name: string, count: number): ToolCall[] =>
  Array.from({ length: count }, (_, i) => ({ id: `${name}${i}`, name, input: { i } }));

async function refusal(dispatcher: Dispatcher, batch: readonly ToolCall[]): Promise<DispatchError> {
  const outcome = dispatcher.dispatch(batch).then(
    () => undefined,
    (error: unknown) => error,
  );
  await vi.runAllTimersAsync();
  const error = await outcome;
  if (!(error instanceof DispatchError)) throw new Error('expected the dispatch to fail');
  return error;
}

describe('named limits', () => {
  it('caps two servers apart under one global cap: neither overloaded, neither idle', async () => {
    const ran: { name: string; i: number; start: number; end: number }[] = [];
    const registry = new ToolRegistry()
      .add(slow({ name: 'a', ms: 10, limits: () => ({ 'server-a': 1 }), ran }))
      .add(slow({ name: 'b', ms: 10, limits: () => ({ 'server-b': 1 }), ran }));
    const dispatcher = new Dispatcher({
      registry,
      mode: 'parallel',
      maxConcurrency: 6,
      limits: { 'server-a': 2, 'server-b': 4 },
    });
    const done = dispatcher.dispatch([...calls('a', 6), ...calls('b', 8)]);
    await vi.runAllTimersAsync();
    await done;
    // Calls to a: 2 at a time, 3 rounds of 10 ms; calls to b: 4 at a time, 2 rounds — side by side.
    const startsOf = (name: string) => ran.filter((r) => r.name === name).map((r) => r.start);
    expect(startsOf('a').sort((x, y) => x - y)).toEqual([0, 0, 10, 10, 20, 20]);
    expect(startsOf('b').sort((x, y) => x - y)).toEqual([0, 0, 0, 0, 10, 10, 10, 10]);
  });

  it('shares its limits between the batches of one dispatcher', async () => {
    const ran: { name: string; i: number; start: number; end: number }[] = [];
    const registry = new ToolRegistry().add(
      slow({ name: 'a', ms: 10, limits: () => ({ api: 1 }), ran }),
    );
    const dispatcher = new Dispatcher({ registry, mode: 'eager', limits: { api: 1 } });
    const first = dispatcher.dispatch(calls('a', 2));
    const events: DispatchEvent[] = [];
    const second = dispatcher.dispatch([{ id: 'x', name: 'a', input: { i: 9 } }], {
      onEvent: (event) => events.push(event),
    });
    await vi.runAllTimersAsync();
    await Promise.all([first, second]);
    expect(ran.map((r) => r.start)).toEqual([0, 10, 20]);
    const start = events.find((e) => e.type === 'call-start');
    expect(start?.type === 'call-start' && start.waitedForLimits).toEqual(['api']);
  });

  it("names a wave's limit waits in the plan's explanation, before any call starts", async () => {
    const registry = new ToolRegistry()
      .add(slow({ name: 'a', ms: 10, limits: () => ({ api: 2 }) }))
      .add(slow({ name: 'b', ms: 10 }));
    const dispatcher = new Dispatcher({ registry, mode: 'parallel', limits: { api: 4 } });
    const events: DispatchEvent[] = [];
    const done = dispatcher.dispatch([...calls('a', 3), ...calls('b', 1)], {
      onEvent: (event) => events.push(event),
    });
    await vi.runAllTimersAsync();
    await done;
    const start = events[0];
    if (start?.type !== 'batch-start') throw new Error('expected batch-start first');
    // One wave of four keyless calls; three take 2 of `api` (4): 6 of 4, so one waits.
    const wait = '; counts against `api` (2 of 4); may wait for limit `api`: its wave needs 6 of 4';
    expect(start.explanation.map((e) => e.reason)).toEqual([
      `keyless: joins the earliest open wave${wait}`,
      `keyless: joins the earliest open wave${wait}`,
      `keyless: joins the earliest open wave${wait}`,
      'keyless: joins the earliest open wave',
    ]);
    const waited = events.filter((e) => e.type === 'call-start' && e.waitedForLimits !== undefined);
    expect(waited.map((e) => e.type === 'call-start' && e.index)).toEqual([2]);
  });

  it('gives the weights of a cancelled or abandoned batch back to the dispatcher', async () => {
    const ran: { name: string; i: number; start: number; end: number }[] = [];
    const registry = new ToolRegistry().add(
      slow({ name: 'a', ms: 50, limits: () => ({ api: 2 }), ran }),
    );
    for (const mode of ['parallel', 'eager'] as const) {
      const dispatcher = new Dispatcher({ registry, mode, limits: { api: 2 } });
      // Cancelled by its signal, or unsubscribed from: both while call 0 holds the limit.
      const controller = new AbortController();
      const first = dispatcher.dispatch(calls('a', 2), { signal: controller.signal });
      const outcome = first.catch((error: unknown) => error);
      setTimeout(() => controller.abort(), 10);
      await vi.advanceTimersByTimeAsync(10);
      expect((await outcome) as DispatchError).toMatchObject({ code: 'cancelled' });
      const watched = dispatcher.run(calls('a', 2)).subscribe();
      await vi.advanceTimersByTimeAsync(10);
      watched.unsubscribe();
      const begin = fakeNow();
      const second = dispatcher.dispatch(calls('a', 2));
      await vi.runAllTimersAsync();
      expect((await second).map((r) => r.isError)).toEqual([false, false]);
      expect(ran.slice(-2).map((r) => r.start - begin)).toEqual([0, 50]);
    }
  });

  it('counts a tool against `limitsIfConfigured` only when the limit exists', async () => {
    const ran: { name: string; i: number; start: number; end: number }[] = [];
    const tool = slow({ name: 'm', ms: 10, limitsIfConfigured: { 'mcp:web': 1 }, ran });
    const capped = new Dispatcher({
      registry: new ToolRegistry().add(tool),
      mode: 'eager',
      limits: { 'mcp:web': 1 },
    });
    const free = new Dispatcher({ registry: new ToolRegistry().add(tool), mode: 'eager' });
    const both = Promise.all([capped.dispatch(calls('m', 2)), free.dispatch(calls('m', 2))]);
    await vi.runAllTimersAsync();
    await both;
    expect(ran.map((r) => r.start).sort((x, y) => x - y)).toEqual([0, 0, 0, 10]);
  });

  it('refuses a wrong declaration, naming the tool, the limit and the value', async () => {
    const dispatcherWith = (limits: Tool<{ i: number }>['limits']): Dispatcher =>
      new Dispatcher({
        registry: new ToolRegistry().add(slow({ name: 'gh', ms: 1, limits })),
        mode: 'parallel',
        limits: { github: 2 },
      });
    const batch = calls('gh', 2);
    const unknown = await refusal(
      dispatcherWith(() => ({ githb: 1 })),
      batch,
    );
    expect(unknown.code).toBe('invalid_config');
    expect(unknown.message).toBe(
      "Tool `gh` (call gh0): it declares limit `githb` (weight `1` (number)), which neither the Dispatcher's `limits` nor its coordinator's have (did you mean `github`?); the limits are `github`",
    );
    expect(
      (
        await refusal(
          dispatcherWith(() => ({ github: 3 })),
          batch,
        )
      ).message,
    ).toBe(
      "Tool `gh` (call gh0): its weight 3 in limit `github` is more than the limit's capacity, 2: the call could never start",
    );
    expect(
      (
        await refusal(
          dispatcherWith(() => ({ github: 0 })),
          batch,
        )
      ).message,
    ).toBe(
      'Tool `gh` (call gh0): expected its weight in limit `github` to be an integer from 1 and up, got `0` (number)',
    );
    const threw = await refusal(
      dispatcherWith(() => {
        throw new Error('no input');
      }),
      batch,
    );
    expect(threw.message).toBe('Tool `gh` (call gh0): its `limits` threw: no input');
  });

  it('refuses a stream call with a wrong declaration as `invalid_config`', async () => {
    const registry = new ToolRegistry().add(slow({ name: 'gh', ms: 1, limits: () => ({ x: 1 }) }));
    const dispatcher = new Dispatcher({ registry, mode: 'eager', limits: { github: 2 } });
    async function* source(): AsyncGenerator<ToolCall> {
      yield* calls('gh', 1);
    }
    const outcome = dispatcher.dispatchStream(source()).catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    const error = await outcome;
    expect(error).toBeInstanceOf(DispatchError);
    expect((error as DispatchError).code).toBe('invalid_config');
  });

  it('refuses a capacity that is not an integer from 1 up at construction', () => {
    const registry = new ToolRegistry();
    expect(() => new Dispatcher({ registry, limits: { api: 0 } })).toThrow(
      'Expected `limits.api` to be an integer from 1 and up, got `0` (number)',
    );
    expect(() => new Dispatcher({ registry, limits: [] as never })).toThrow(
      'Expected `limits` to be an object of limit names and capacities (integers from 1 and up), got `[]` (array)',
    );
    expect(
      () => new Dispatcher({ registry, coordinator: noCoordination, limits: {} }),
    ).not.toThrow();
  });

  it("sends the coordinator's limits with the fleet request, and counts the others here", async () => {
    const requests: CoordinationRequest[] = [];
    const coordinator: Coordinator = {
      limits: { github: 8 },
      acquire: (request) => {
        requests.push(request);
        return Promise.resolve({
          lost: new AbortController().signal,
          release: () => Promise.resolve(),
        });
      },
    };
    const registry = new ToolRegistry().add(
      slow({ name: 'gh', ms: 1, limits: () => ({ github: 2, local: 1 }) }),
    );
    const dispatcher = new Dispatcher({ registry, coordinator, limits: { local: 1 } });
    const done = dispatcher.dispatch(calls('gh', 1));
    await vi.runAllTimersAsync();
    await done;
    expect(requests.map((r) => r.limits)).toEqual([{ github: 2 }]);
  });
});
