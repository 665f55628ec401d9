import { fnTool, ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type RedisCoordinator, redisCoordinator } from '../src/index.js';
import { coordinatorFor, describeWithRedis, freshNamespace } from './fleet-fixture.js';
import { type RedisServer, startRedisServer } from './redis-server.js';

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

  describeWithRedis('Redis restarted mid-run', () => {
    let server: RedisServer;
    let coordinator: RedisCoordinator;
    beforeAll(async () => {
      server = await startRedisServer();
      coordinator = redisCoordinator({ url: server.url, namespace: 'dispatch', leaseMs: 300 });
    });
    afterAll(async () => {
      await coordinator.close();
      await server.stop();
    });

    it('the call in flight and the calls while Redis is away are soft errors naming the cause; later calls run', async () => {
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
      const dispatcher = new Dispatcher({ registry, coordinator });

      const pending = dispatcher.dispatch([{ id: 'long', name: 'edit', input: { wait: true } }]);
      await inFlight;
      await server.stop();
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
      expect(refused?.content).toContain(`Redis at ${server.url} is unavailable`);

      await server.start();
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
});
