import { expect, it, vi } from 'vitest';
import { RedisCoordinatorError, redisCoordinator } from '../src/index.js';
import {
  describeWithRedis,
  lockRequest,
  restartableRedis,
  settleEarlierRequests,
  TEST_LEASE_MS,
  tracked,
} from './fleet-fixture.js';

describeWithRedis('Redis restarted mid-run', () => {
  const redis = restartableRedis({ namespace: 'restart', leaseMs: TEST_LEASE_MS });

  it('in-flight grants are lost and waiters rejected, naming the cause; later calls succeed once Redis is back', async () => {
    const running = await redis.coordinator.acquire(lockRequest(['w fs:/a']));
    const waiting = tracked(redis.coordinator.acquire(lockRequest(['w fs:/a'])));
    const lost = new Promise<unknown>((resolve) =>
      running.lost.addEventListener('abort', () => resolve(running.lost.reason)),
    );

    await redis.server.stop();

    const reason = await lost;
    expect(reason).toBeInstanceOf(RedisCoordinatorError);
    expect((reason as RedisCoordinatorError).code).toBe('lease_lost');
    expect((reason as RedisCoordinatorError).message).toContain('Lost the fleet lease of call');
    const waitError: unknown = await waiting.promise.catch((e: unknown) => e);
    expect(waitError).toBeInstanceOf(RedisCoordinatorError);
    expect((waitError as RedisCoordinatorError).code).toBe('unavailable');
    await expect(redis.coordinator.acquire(lockRequest(['w fs:/b']))).rejects.toMatchObject({
      code: 'unavailable',
    });
    await running.release(); // Redis is away: never throws

    await redis.server.start();
    const later = await vi.waitFor(() => redis.coordinator.acquire(lockRequest(['w fs:/a'])), {
      timeout: 10_000,
      interval: 50,
    });
    expect(later.fencingToken).toBeGreaterThan(0);
    expect(later.lost.aborted).toBe(false);
    await later.release();
  });

  it('Redis down when the coordinator starts: calls are refused until it is up, then locks and wake-ups work', async () => {
    await redis.server.stop();
    const late = redisCoordinator({
      url: redis.server.url,
      namespace: 'late-start',
      leaseMs: TEST_LEASE_MS,
    });
    try {
      await expect(late.acquire(lockRequest(['w fs:/x']))).rejects.toMatchObject({
        code: 'unavailable',
      });
      await redis.server.start();
      const holder = await vi.waitFor(() => late.acquire(lockRequest(['w fs:/x'])), {
        timeout: 10_000,
        interval: 50,
      });
      const waiter = tracked(late.acquire(lockRequest(['w fs:/x'])));
      await settleEarlierRequests(late);
      expect(waiter.status).toBe('pending');
      await holder.release();
      await (await waiter.promise).release();
    } finally {
      await late.close();
    }
  });
});
