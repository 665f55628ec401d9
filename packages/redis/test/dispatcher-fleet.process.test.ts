import { createClient } from '@redis/client';
import { fnTool, ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { expect, it, vi } from 'vitest';
import { startRedisServer } from '../../../test-support/redis-server.js';
import { redisCoordinator } from '../src/index.js';
import {
  coordinatorFor,
  describeWithRedis,
  freshNamespace,
  redisUrl,
  TEST_LEASE_MS,
} from './fleet-fixture.js';

describeWithRedis('the Dispatcher with a Redis coordinator', () => {
  it('the fencing token reaches the tool, and a fleet limit caps calls inside one parallel batch', async () => {
    const coordinator = coordinatorFor({ namespace: freshNamespace(), limits: { charge: 1 } });
    let running = 0;
    let most = 0;
    const tokens: (number | undefined)[] = [];
    const registry = new ToolRegistry().add(
      fnTool({
        name: 'charge',
        description: 'a rate-limited API',
        concurrencySafe: true,
        execute: async (_input, context) => {
          tokens.push(context.fencingToken);
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 2));
          running -= 1;
          return 'charged';
        },
      }),
    );
    const dispatcher = new Dispatcher({ registry, mode: 'parallel', coordinator });
    const results = await dispatcher.dispatch(
      [1, 2, 3, 4].map((i) => ({ id: `c${i}`, name: 'charge', input: {} })),
    );
    expect(results.map((r) => r.content)).toEqual(['charged', 'charged', 'charged', 'charged']);
    expect(most).toBe(1);
    expect(new Set(tokens).size).toBe(4);
    for (const token of tokens) expect(token).toBeGreaterThan(0);
  });

  // The lease scenario and the restart scenario run at once, each on its own: each mostly waits
  // (for a lease to run out, for Redis to come back).
  it.concurrent('a tool that outlives its lease is refused by a store that checks fencing tokens', async (context) => {
    const namespace = freshNamespace();
    const stalled = createClient({ url: redisUrl, disableOfflineQueue: true });
    stalled.on('error', () => undefined);
    await stalled.connect();
    const store = { value: 'initial', highest: 0 };
    const attempts: string[] = [];
    /** What a fencing-aware resource does: refuse any token older than one it has seen. */
    const save = (value: string, token: number | undefined): boolean => {
      if (token === undefined || token < store.highest) {
        attempts.push(`${value}: refused (token ${token})`);
        return false;
      }
      store.highest = token;
      store.value = value;
      attempts.push(`${value}: saved`);
      return true;
    };
    let toolStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      toolStarted = resolve;
    });
    let openGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const saveTool = (slow: boolean) =>
      new ToolRegistry().add(
        fnTool<{ value: string }>({
          name: 'save',
          description: 'saves an order',
          concurrencySafe: true,
          access: [{ key: 'db:/orders', mode: 'write' }],
          execute: async ({ value }, context) => {
            if (slow) {
              toolStarted();
              await gate; // a tool that ignores its signal, like a process paused mid-call
            }
            return save(value, context.fencingToken) ? 'saved' : 'refused';
          },
        }),
      );
    const first = new Dispatcher({
      registry: saveTool(true),
      coordinator: coordinatorFor({ namespace, client: stalled, leaseMs: TEST_LEASE_MS }, context),
    });
    const second = new Dispatcher({
      registry: saveTool(false),
      coordinator: coordinatorFor({ namespace, leaseMs: TEST_LEASE_MS }, context),
    });

    const firstCall = first.dispatch([{ id: 'old', name: 'save', input: { value: 'old' } }]);
    await started;
    stalled.destroy(); // its lease can no longer be renewed
    const [lost] = await firstCall;
    expect(lost?.isError).toBe(true);
    expect(lost?.content).toContain('lost its fleet lease');

    const [saved] = await second.dispatch([{ id: 'new', name: 'save', input: { value: 'new' } }]);
    expect(saved?.content).toBe('saved');
    openGate(); // the stale tool wakes up and tries to write
    await vi.waitFor(() => expect(attempts).toHaveLength(2));
    expect(attempts[0]).toBe('new: saved');
    expect(attempts[1]).toMatch(/^old: refused \(token \d+\)$/);
    expect(store.value).toBe('new');
  });

  it.concurrent('Redis restarted mid-run: the call in flight and the calls while Redis is away are soft errors naming the cause; later calls run', async (context) => {
    // a server of its own, so stopping it touches no other test
    const server = await startRedisServer();
    const coordinator = redisCoordinator({
      url: server.url,
      namespace: 'dispatch',
      leaseMs: TEST_LEASE_MS,
    });
    context.onTestFinished(async () => {
      await coordinator.close();
      await server.stop();
    });
    const redis = { server, coordinator };
    let started: () => void = () => undefined;
    const inFlight = new Promise<void>((resolve) => {
      started = resolve;
    });
    const registry = new ToolRegistry().add(
      fnTool<{ wait: boolean }>({
        name: 'edit',
        description: 'holds a write lock until told to stop when asked to wait',
        concurrencySafe: true,
        access: [{ key: 'fs:/repo/a.ts', mode: 'write' }],
        execute: ({ wait }, context) =>
          wait
            ? new Promise<string>((_, reject) => {
                started();
                context.signal.addEventListener('abort', () => reject(context.signal.reason));
              })
            : 'edited',
      }),
    );
    const dispatcher = new Dispatcher({ registry, coordinator: redis.coordinator });

    const pending = dispatcher.dispatch([{ id: 'long', name: 'edit', input: { wait: true } }]);
    await inFlight;
    await redis.server.stop();
    const [lost] = await pending;
    expect(lost?.isError).toBe(true);
    expect(lost?.content).toContain('lost its fleet lease');
    expect(lost?.content).toContain(
      'Lost the fleet lease of call long (edit) on write fs:/repo/a.ts',
    );

    const [refused] = await dispatcher.dispatch([
      { id: 'down', name: 'edit', input: { wait: false } },
    ]);
    expect(refused?.isError).toBe(true);
    expect(refused?.content).toContain('could not grant its accesses');
    expect(refused?.content).toContain(`Redis at ${redis.server.url} is unavailable`);

    await redis.server.start();
    const back = await vi.waitFor(
      async () => {
        const [result] = await dispatcher.dispatch([
          { id: 'up', name: 'edit', input: { wait: false } },
        ]);
        if (result?.isError) throw new Error(String(result.content));
        return result;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(back?.content).toBe('edited');
  });
});
