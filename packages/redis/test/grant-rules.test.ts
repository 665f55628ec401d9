import { createClient } from '@redis/client';
import type { CoordinationGrant } from '@toolwaves/core';
import { expect, it, vi } from 'vitest';
import {
  coordinatorFor,
  describeWithRedis,
  freshNamespace,
  lockRequest,
  redisUrl,
  releaseAll,
  settleEarlierRequests,
  tracked,
} from './fleet-fixture.js';

describeWithRedis('grant rules', () => {
  it('fails closed: a call whose declarations could not be read holds the whole namespace exclusively', async () => {
    const namespace = freshNamespace();
    const coordinator = coordinatorFor({ namespace });
    const other = coordinatorFor({ namespace });
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    const queued = (n: number) =>
      vi.waitFor(async () => expect(await redis.zCard(`toolwaves:{${namespace}}:queue`)).toBe(n));
    try {
      const holder = await coordinator.acquire(lockRequest(['r fs:/repo/a']));
      const exclusive = tracked(
        other.acquire({ ...lockRequest([], { toolName: 'broken' }), exclusive: true }),
      );
      await queued(1);
      const later = tracked(coordinator.acquire(lockRequest(['r fs:/unrelated'])));
      await queued(2);
      // it waits for every holder, whatever its key, and nothing queued after it overtakes it
      expect([exclusive.status, later.status]).toEqual(['pending', 'pending']);
      await holder.release();
      const whole = await exclusive.promise;
      expect(whole.fencingToken).toBeGreaterThan(holder.fencingToken ?? Infinity);
      expect(later.status).toBe('pending'); // cannot be granted while the namespace is held
      await whole.release();
      const after = await later.promise;
      expect(after.fencingToken).toBeGreaterThan(whole.fencingToken ?? Infinity);
      await after.release();
    } finally {
      await redis.close();
    }
  });

  it('limits count holders and the waiters ahead that only the limit holds back: a waiter blocked on a key does not block a free call', async () => {
    const namespace = freshNamespace();
    const limits = { edit: 2 };
    const one = coordinatorFor({ namespace, limits });
    const two = coordinatorFor({ namespace, limits });
    const holder = await one.acquire(lockRequest(['w fs:/a'], { toolName: 'edit' }));
    const blocked = tracked(two.acquire(lockRequest(['w fs:/a'], { toolName: 'edit' })));
    await settleEarlierRequests(two);
    expect(blocked.status).toBe('pending');
    // one holder of `edit` (limit 2); the waiter ahead waits for fs:/a, not for the limit
    const free = await one.acquire(lockRequest(['w fs:/b'], { toolName: 'edit' }));
    // now two hold `edit`: the limit holds the next one back even on a free key
    const capped = tracked(two.acquire(lockRequest(['w fs:/c'], { toolName: 'edit' })));
    await settleEarlierRequests(two);
    expect(capped.status).toBe('pending');
    await free.release();
    await (await capped.promise).release();
    await holder.release();
    await (await blocked.promise).release();
  });

  it('hands a released key to the next waiter in the releasing script: the waiter sends nothing to get it', async () => {
    const namespace = freshNamespace();
    const holderSide = coordinatorFor({ namespace, leaseMs: 60_000 });
    const waiterSide = coordinatorFor({ namespace, leaseMs: 60_000 });
    const holder = await holderSide.acquire(lockRequest(['w fs:/hot']));
    const waiting = tracked(waiterSide.acquire(lockRequest(['w fs:/hot'])));
    await settleEarlierRequests(waiterSide);
    const sentWhileWaiting = waiterSide.roundTrips;
    await holder.release();
    const next = await waiting.promise;
    // granted by the release: no retry was sent (the one command after it renews the lease)
    expect(waiterSide.roundTrips - sentWhileWaiting).toBeLessThanOrEqual(1);
    expect(next.fencingToken).toBeGreaterThan(holder.fencingToken ?? Infinity);
    await next.release();
  });

  it('a released write lock lets every reader queued behind it in, also past the 16 the release hands over', async () => {
    const namespace = freshNamespace();
    const coordinator = coordinatorFor({ namespace });
    const writer = await coordinator.acquire(lockRequest(['w fs:/doc']));
    const readers = Array.from({ length: 40 }, () =>
      tracked(coordinator.acquire(lockRequest(['r fs:/doc']))),
    );
    await settleEarlierRequests(coordinator);
    expect(readers.every((r) => r.status === 'pending')).toBe(true);
    await writer.release();
    const grants: CoordinationGrant[] = await Promise.all(readers.map((r) => r.promise));
    expect(new Set(grants.map((g) => g.fencingToken)).size).toBe(40);
    await releaseAll(grants);
  });
});
