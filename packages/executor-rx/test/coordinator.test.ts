import { getEventListeners } from 'node:events';
import {
  type CoordinationGrant,
  type CoordinationRequest,
  type Coordinator,
  fnTool,
  type ToolContext,
  ToolRegistry,
} from '@toolwaves/core';
import { MockTool, trackPromise } from '@toolwaves/core/testing';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type DispatchError,
  Dispatcher,
  type DispatcherOptions,
  type RecoveryStrategy,
} from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { record, starts } from './recording.js';
import { skipAndKeep } from './recovery-strategies.js';
import { call } from './tool-call.js';

useFakeClock();

interface FakeGrant {
  readonly request: CoordinationRequest;
  readonly fencingToken: number;
  readonly lost: AbortController;
  /** How many times `release()` was called. */
  releases: number;
}

interface FakeOptions {
  /** Grant after this long (timers, so fake time drives it); `undefined`: never. */
  readonly delayMs?: number | undefined;
  /** Reject every request with this. */
  readonly failWith?: Error;
  /** Keep waiting even when the request's signal aborts (grant late anyway). */
  readonly deaf?: boolean;
}

/** An in-test fleet coordinator: grants after a delay, counts releases, can lose a grant. */
class FakeCoordinator implements Coordinator {
  readonly requests: CoordinationRequest[] = [];
  readonly grants: FakeGrant[] = [];
  readonly #options: FakeOptions;

  constructor(options: FakeOptions = {}) {
    this.#options = options;
  }

  acquire(request: CoordinationRequest): Promise<CoordinationGrant> {
    this.requests.push(request);
    const { delayMs, failWith, deaf } = this.#options;
    return new Promise<CoordinationGrant>((resolve, reject) => {
      if (failWith !== undefined) {
        reject(failWith);
        return;
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grant = (): void => {
        const entry: FakeGrant = {
          request,
          fencingToken: this.grants.length + 1,
          lost: new AbortController(),
          releases: 0,
        };
        this.grants.push(entry);
        resolve({
          fencingToken: entry.fencingToken,
          lost: entry.lost.signal,
          release: () => {
            entry.releases += 1;
            return Promise.resolve();
          },
        });
      };
      if (!deaf) {
        request.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(request.signal.reason);
        });
      }
      if (delayMs !== undefined) timer = setTimeout(grant, delayMs);
    });
  }
}

/** A tool that ignores its signal and answers 'late' after `settlesAfterMs`. */
const stubbornTool = (options: { settlesAfterMs: number; resourceKey?: string }) =>
  fnTool({
    name: 'stubborn',
    description: 'ignores its signal',
    ...(options.resourceKey === undefined
      ? {}
      : { concurrencySafe: true, resourceKey: options.resourceKey }),
    execute: () =>
      new Promise<string>((resolve) => setTimeout(() => resolve('late'), options.settlesAfterMs)),
  });

const fencingTokens: (number | undefined)[] = [];
const writer = () =>
  new MockTool({
    name: 'write',
    delayMs: 100,
    concurrencySafe: true,
    resourceKey: (input) => `fs:/repo/${(input as { file: string }).file}`,
    result: (_input, context: ToolContext) => {
      fencingTokens.push(context.fencingToken);
      return 'written';
    },
  });

beforeEach(() => {
  fencingTokens.length = 0;
});

describe.each(['sequential', 'parallel', 'eager'] as const)(
  'the fleet coordinator (%s)',
  (mode) => {
    const make = (
      coordinator: Coordinator,
      tools: MockTool[],
      options: Partial<DispatcherOptions> = {},
    ) =>
      new Dispatcher({
        registry: tools.reduce((registry, tool) => registry.add(tool), new ToolRegistry()),
        mode,
        coordinator,
        ...options,
      });

    it('grants every attempt its declared accesses; the wait shows, the token reaches the tool', async () => {
      const fleet = new FakeCoordinator({ delayMs: 40 });
      const write = writer();
      const reader = new MockTool({
        name: 'read',
        concurrencySafe: true,
        access: [{ key: 'db:/users', mode: 'read' }],
      });
      const plain = new MockTool({ name: 'plain' });
      const dispatcher = make(fleet, [write, reader, plain]);
      const run = record(
        dispatcher.run([
          call('w', 'write', { file: 'a.ts' }),
          call('r', 'read'),
          call('p', 'plain'),
        ]),
      );
      await vi.advanceTimersByTimeAsync(1_000);
      expect(run.status).toBe('complete');
      expect(fleet.requests.map((r) => [r.toolCallId, r.toolName, r.access])).toEqual([
        ['w', 'write', [{ key: 'fs:/repo/a.ts', mode: 'write' }]],
        ['r', 'read', [{ key: 'db:/users', mode: 'read' }]],
        ['p', 'plain', []],
      ]);
      expect(starts(run.events).map((e) => [e.toolCallId, e.fleetWaitMs])).toEqual([
        ['w', 40],
        ['r', 40],
        ['p', 40],
      ]);
      expect(write.calls[0]?.startedAt).toBe(40);
      expect(fencingTokens).toEqual([
        fleet.grants.find((g) => g.request.toolCallId === 'w')?.fencingToken,
      ]);
      expect(fleet.grants.map((g) => g.releases)).toEqual([1, 1, 1]);
      // Nothing is left listening on a grant once it is given back.
      expect(fleet.grants.map((g) => getEventListeners(g.lost.signal, 'abort').length)).toEqual([
        0, 0, 0,
      ]);
      const end = run.events.at(-1);
      expect(end?.type === 'batch-end' && end.results[0]).toMatchObject({
        content: 'written',
        durationMs: 140,
      });
    });

    it('the wait counts in timeoutMs: past it the call is a soft error and its tool never runs', async () => {
      const fleet = new FakeCoordinator({ delayMs: undefined });
      const write = writer();
      const dispatcher = make(fleet, [write], { timeoutMs: 100 });
      const run = record(dispatcher.run([call('w', 'write', { file: 'a.ts' })]));
      await vi.advanceTimersByTimeAsync(99);
      expect(run.status).toBe('running');
      await vi.advanceTimersByTimeAsync(1);
      expect(run.status).toBe('complete');
      const end = run.events.at(-1);
      expect(end?.type === 'batch-end' && end.results[0]).toMatchObject({
        content: 'Tool `write` timed out after 100 ms',
        isError: true,
        durationMs: 100,
      });
      expect(fleet.requests[0]?.signal.aborted).toBe(true);
      expect(write.calls).toEqual([]);
      expect(starts(run.events)[0]?.fleetWaitMs).toBe(100);
    });

    it('a grant that comes after the timeout is given back at once, unused', async () => {
      const fleet = new FakeCoordinator({ delayMs: 200, deaf: true });
      const write = writer();
      const dispatcher = make(fleet, [write], { timeoutMs: 100 });
      const done = trackPromise(dispatcher.dispatch([call('w', 'write', { file: 'a.ts' })]));
      await vi.advanceTimersByTimeAsync(100);
      expect(done.value?.[0]?.content).toBe('Tool `write` timed out after 100 ms');
      await vi.advanceTimersByTimeAsync(100);
      expect(fleet.grants.map((g) => g.releases)).toEqual([1]);
      expect(write.calls).toEqual([]);
    });

    it('cancellation while waiting: the request is abandoned, the tool never runs', async () => {
      const fleet = new FakeCoordinator({ delayMs: 500 });
      const write = writer();
      const dispatcher = make(fleet, [write]);
      const controller = new AbortController();
      const done = trackPromise(
        dispatcher.dispatch([call('w', 'write', { file: 'a.ts' })], { signal: controller.signal }),
      );
      await vi.advanceTimersByTimeAsync(30);
      controller.abort();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(done.status).toBe('rejected');
      expect((done.error as DispatchError).code).toBe('cancelled');
      expect(fleet.requests[0]?.signal.aborted).toBe(true);
      expect(fleet.grants).toEqual([]);
      expect(write.calls).toEqual([]);
    });

    it('a coordinator that cannot grant: a soft error naming the cause, the tool never runs', async () => {
      const outage = new Error('Redis at 10.0.0.7:6379 is unreachable');
      const skipping = skipAndKeep();
      const write = writer();
      const dispatcher = make(new FakeCoordinator({ failWith: outage }), [write], {
        recovery: { strategy: skipping.strategy },
      });
      const [result] = await dispatcher.dispatch([call('w', 'write', { file: 'a.ts' })]);
      expect(result).toMatchObject({
        content:
          'Tool `write` did not run: the fleet coordinator could not grant its accesses: Redis at 10.0.0.7:6379 is unreachable',
        isError: true,
      });
      expect(skipping.failures.map((f) => [f.kind, f.error])).toEqual([
        ['coordination_failed', outage],
      ]);
      expect(write.calls).toEqual([]);
      expect(dispatcher.health.stats('write')).toEqual({
        successes: 0,
        failures: 0,
        latencyMs: undefined,
      });
    });

    it('a coordinator whose acquire throws is treated the same', async () => {
      const write = writer();
      const throwing: Coordinator = {
        acquire: () => {
          throw new Error('not connected');
        },
      };
      const dispatcher = make(throwing, [write]);
      const [result] = await dispatcher.dispatch([call('w', 'write', { file: 'a.ts' })]);
      expect(result?.content).toBe(
        'Tool `write` did not run: the fleet coordinator could not grant its accesses: not connected',
      );
      expect(write.calls).toEqual([]);
    });

    it('a lease lost mid-call stops the tool and answers that its outcome is unknown, never retried', async () => {
      const fleet = new FakeCoordinator({ delayMs: 0 });
      const write = writer();
      let decisions = 0;
      const retryAll: RecoveryStrategy = {
        name: 'retry-all',
        decide: () => {
          decisions += 1;
          return { action: 'retry', delayMs: 0 };
        },
      };
      const dispatcher = make(fleet, [write], { recovery: { strategy: retryAll } });
      const done = trackPromise(dispatcher.dispatch([call('w', 'write', { file: 'a.ts' })]));
      await vi.advanceTimersByTimeAsync(50);
      fleet.grants[0]?.lost.abort(new Error('lease expired'));
      await vi.advanceTimersByTimeAsync(0);
      expect(done.status).toBe('resolved');
      expect(done.value?.[0]).toMatchObject({
        content:
          'Tool `write` lost its fleet lease while it ran (lease expired): its effect is unknown (it may or may not have taken place); it was not retried',
        isError: true,
        durationMs: 50,
      });
      // Recovery would retry any other soft error; this one it never sees.
      expect(decisions).toBe(0);
      expect(fleet.requests).toHaveLength(1);
      expect(write.calls.map((c) => [c.outcome, c.endedAt])).toEqual([['aborted', 50]]);
      expect(fleet.grants[0]?.releases).toBe(1);
    });

    it('a grant already lost when it arrives: the tool never runs', async () => {
      const write = writer();
      const lost = new AbortController();
      lost.abort(new Error('expired in transit'));
      let releases = 0;
      const stale: Coordinator = {
        acquire: () =>
          Promise.resolve({
            fencingToken: 7,
            lost: lost.signal,
            release: () => {
              releases += 1;
              return Promise.resolve();
            },
          }),
      };
      const dispatcher = make(stale, [write]);
      const [result] = await dispatcher.dispatch([call('w', 'write', { file: 'a.ts' })]);
      expect(result?.content).toBe('Tool `write` lost its fleet lease: expired in transit');
      expect(write.calls).toEqual([]);
      expect(releases).toBe(1);
    });

    it('release() once whatever ends the attempt: a throw, a timeout, a cancel', async () => {
      const fleet = new FakeCoordinator({ delayMs: 0 });
      const broken = new MockTool({ name: 'broken', error: new Error('disk full') });
      const slow = new MockTool({ name: 'slow', delayMs: 1_000 });
      const dispatcher = make(fleet, [broken, slow], { timeoutMs: 100 });
      const first = trackPromise(dispatcher.dispatch([call('b', 'broken'), call('s', 'slow')]));
      await vi.advanceTimersByTimeAsync(100);
      expect(first.value?.map((r) => r.content)).toEqual([
        'Tool `broken` failed: disk full',
        'Tool `slow` timed out after 100 ms',
      ]);
      const controller = new AbortController();
      const cancelled = trackPromise(
        dispatcher.dispatch([call('c', 'slow')], { signal: controller.signal }),
      );
      await vi.advanceTimersByTimeAsync(10);
      controller.abort();
      await vi.advanceTimersByTimeAsync(0);
      expect(cancelled.status).toBe('rejected');
      expect(fleet.grants.map((g) => [g.request.toolCallId, g.releases])).toEqual([
        ['b', 1],
        ['s', 1],
        ['c', 1],
      ]);
    });

    it('the grant outlives settleTimeoutMs while the tool still runs; released once when it settles', async () => {
      const fleet = new FakeCoordinator({ delayMs: 0 });
      const dispatcher = new Dispatcher({
        registry: new ToolRegistry().add(
          stubbornTool({ settlesAfterMs: 500, resourceKey: 'db:/row' }),
        ),
        mode,
        coordinator: fleet,
        timeoutMs: 100,
        settleTimeoutMs: 50,
      });
      const first = trackPromise(dispatcher.dispatch([call('x', 'stubborn')]));
      await vi.advanceTimersByTimeAsync(100);
      expect(first.value?.[0]?.content).toBe('Tool `stubborn` timed out after 100 ms');
      // Past the settle timeout the keys are given back in this process (a later call runs)...
      const second = trackPromise(dispatcher.dispatch([call('y', 'stubborn')]));
      await vi.advanceTimersByTimeAsync(200);
      expect(second.status).toBe('resolved');
      // ...but the first tool's fleet grant is still held: it may still write.
      expect(fleet.grants.map((g) => [g.request.toolCallId, g.releases])).toEqual([
        ['x', 0],
        ['y', 0],
      ]);
      await vi.advanceTimersByTimeAsync(200);
      expect(fleet.grants.map((g) => [g.request.toolCallId, g.releases])).toEqual([
        ['x', 1],
        ['y', 0],
      ]);
      // The second tool started once the keys were given back (150) and its grant came (a 0 ms
      // timer: 151); it settles at 651.
      await vi.advanceTimersByTimeAsync(150);
      expect(fleet.grants[1]?.releases).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(fleet.grants.map((g) => [g.request.toolCallId, g.releases])).toEqual([
        ['x', 1],
        ['y', 1],
      ]);
    });

    it('a lease lost while a tool ignores its signal: outcome unknown at once, released when the tool settles', async () => {
      const fleet = new FakeCoordinator({ delayMs: 0 });
      const dispatcher = new Dispatcher({
        registry: new ToolRegistry().add(stubbornTool({ settlesAfterMs: 300 })),
        mode,
        coordinator: fleet,
      });
      const done = trackPromise(dispatcher.dispatch([call('x', 'stubborn')]));
      await vi.advanceTimersByTimeAsync(40);
      fleet.grants[0]?.lost.abort(new Error('renewal failed'));
      await vi.advanceTimersByTimeAsync(0);
      expect(done.value?.[0]?.content).toMatch(
        /^Tool `stubborn` lost its fleet lease while it ran \(renewal failed\): its effect is unknown/,
      );
      expect(fleet.grants[0]?.releases).toBe(0);
      await vi.advanceTimersByTimeAsync(260);
      expect(fleet.grants[0]?.releases).toBe(1);
    });

    it('fails closed: a call whose declarations throw asks for an exclusive grant', async () => {
      const fleet = new FakeCoordinator({ delayMs: 0 });
      const broken = fnTool({
        name: 'broken_decl',
        description: 'its access list throws',
        concurrencySafe: true,
        access: () => {
          throw new Error('cannot tell');
        },
        execute: () => 'ran',
      });
      const badKey = fnTool({
        name: 'bad_key',
        description: 'answers a key that is not a string',
        resourceKey: () => 42 as unknown as string,
        execute: () => 'ran',
      });
      const write = writer();
      const dispatcher = new Dispatcher({
        registry: new ToolRegistry().add(broken).add(badKey).add(write),
        mode,
        coordinator: fleet,
      });
      const done = trackPromise(
        dispatcher.dispatch([
          call('b', 'broken_decl'),
          call('k', 'bad_key'),
          call('w', 'write', { file: 'a.ts' }),
        ]),
      );
      await vi.advanceTimersByTimeAsync(500);
      expect(done.value?.map((r) => r.content)).toEqual(['ran', 'ran', 'written']);
      expect(fleet.requests.map((r) => [r.toolCallId, r.exclusive, r.access])).toEqual([
        ['b', true, []],
        ['k', true, []],
        ['w', undefined, [{ key: 'fs:/repo/a.ts', mode: 'write' }]],
      ]);
    });

    it('a tool that ignores its signal keeps its fleet grant until it really settles', async () => {
      const fleet = new FakeCoordinator({ delayMs: 0 });
      const dispatcher = new Dispatcher({
        registry: new ToolRegistry().add(stubbornTool({ settlesAfterMs: 500 })),
        mode,
        coordinator: fleet,
        timeoutMs: 100,
      });
      const done = trackPromise(dispatcher.dispatch([call('x', 'stubborn')]));
      await vi.advanceTimersByTimeAsync(100);
      expect(done.status).toBe('resolved');
      expect(fleet.grants[0]?.releases).toBe(0);
      await vi.advanceTimersByTimeAsync(400);
      expect(fleet.grants[0]?.releases).toBe(1);
    });
  },
);
