import { createClient } from '@redis/client';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../test-support/redis-server.js';
import { type RedisCoordinator, redisCoordinator } from '../src/index.js';
import { describeWithRedis, lockRequest } from './fleet-fixture.js';

describeWithRedis('a link that stops answering', () => {
  let server: RedisServer;
  let coordinator: RedisCoordinator;
  beforeEach(async () => {
    server = await startRedisServer();
    coordinator = redisCoordinator({ url: server.url, namespace: 'links', timeoutMs: 300 });
  });
  afterEach(async () => {
    server.signal('SIGCONT');
    await coordinator.close();
    await server.stop();
  });

  it('a frozen Redis (connected, never answering): acquire fails with `unavailable` after the command timeout instead of hanging', async () => {
    await (await coordinator.acquire(lockRequest(['w fs:/a']))).release(); // connected
    server.signal('SIGSTOP');
    const error: unknown = await coordinator.acquire(lockRequest(['w fs:/b'])).catch((e) => e);
    expect(error).toMatchObject({ code: 'unavailable' });
    expect(String((error as Error).message)).toMatch(/no answer within 300 ms/);
    server.signal('SIGCONT');
    const later = await vi.waitFor(() => coordinator.acquire(lockRequest(['w fs:/b'])), {
      timeout: 10_000,
      interval: 50,
    });
    await later.release();
  });

  it('the subscriber, disconnected, reconnects and subscribes again', async () => {
    await (await coordinator.acquire(lockRequest(['w fs:/a']))).release(); // subscribed
    const admin = createClient({ url: server.url });
    await admin.connect();
    try {
      const channel = 'toolwaves:{links}:released';
      const listeners = () => admin.sendCommand(['PUBLISH', channel, '~nobody']);
      expect(await listeners()).toBe(1);
      expect(Number(await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']))).toBe(1);
      await vi.waitFor(async () => expect(await listeners()).toBe(1), {
        timeout: 10_000,
        interval: 50,
      });
    } finally {
      await admin.close();
    }
  });
});
