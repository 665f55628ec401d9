import { createClient } from '@redis/client';
import { expect, it } from 'vitest';
import type { RedisCoordinator } from '../src/index.js';
import {
  coordinatorFor,
  describeWithRedis,
  freshNamespace,
  lockRequest,
  redisUrl,
  settleEarlierRequests,
  tracked,
} from './fleet-fixture.js';

/** The two reads of a Redis client these tests make. */
interface Client {
  zRange(key: string, start: number, stop: number): Promise<unknown>;
  zCard(key: string): Promise<unknown>;
}

/** What the namespace's sets hold: the keys present, how many entries and leases. */
async function sets(redis: Client, namespace: string) {
  const name = (set: string) => `toolwaves:{${namespace}}:${set}`;
  return {
    present: await redis.zRange(name('present'), 0, -1),
    entries: await redis.zCard(name('entries')),
    leases: await redis.zCard(name('leases')),
  };
}

/** Gives `grant` back and asks `access` in the same task, as a worker that locks again does. */
function againAfter(
  coordinator: RedisCoordinator,
  grant: { release(): Promise<void> },
  access: readonly string[],
) {
  void grant.release();
  return tracked(coordinator.acquire(lockRequest(access)));
}

describeWithRedis('a lock given back and another asked in the same task', () => {
  it('the same key again: granted at once with a later token, and nothing is left once given back', async () => {
    const namespace = freshNamespace();
    const coordinator = coordinatorFor({ namespace });
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    try {
      let grant = await coordinator.acquire(lockRequest(['w fs:/d/k']));
      for (let round = 0; round < 3; round += 1) {
        const next = await againAfter(coordinator, grant, ['w fs:/d/k']).promise;
        expect(next.fencingToken).toBeGreaterThan(grant.fencingToken ?? Infinity);
        expect(await sets(redis, namespace)).toEqual({
          present: ['=fs:/d/k'],
          entries: 1,
          leases: 1,
        });
        grant = next;
      }
      await grant.release();
      await settleEarlierRequests(coordinator);
      expect(await sets(redis, namespace)).toEqual({ present: [], entries: 0, leases: 0 });
    } finally {
      await redis.close();
    }
  });

  it('the same key again for a write while another process reads its folder: it waits for that reader', async () => {
    const namespace = freshNamespace();
    const coordinator = coordinatorFor({ namespace });
    const other = coordinatorFor({ namespace });
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    try {
      const reading = await coordinator.acquire(lockRequest(['r fs:/d/k']));
      const folder = await other.acquire(lockRequest(['r fs:/d'])); // two reads: no conflict
      const write = againAfter(coordinator, reading, ['w fs:/d/k']);
      await settleEarlierRequests(coordinator);
      expect(write.status).toBe('pending');
      await folder.release();
      const written = await write.promise;
      expect(written.fencingToken).toBeGreaterThan(folder.fencingToken ?? Infinity);
      await written.release();
      await settleEarlierRequests(coordinator);
      expect(await sets(redis, namespace)).toEqual({ present: [], entries: 0, leases: 0 });
    } finally {
      await redis.close();
    }
  });

  it('its folder after a key in it: granted at once, the key given back no longer present', async () => {
    const namespace = freshNamespace();
    const coordinator = coordinatorFor({ namespace });
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    try {
      const key = await coordinator.acquire(lockRequest(['w fs:/d/k']));
      const folder = await againAfter(coordinator, key, ['w fs:/d']).promise;
      expect(await sets(redis, namespace)).toEqual({ present: ['=fs:/d'], entries: 1, leases: 1 });
      // and back: the key below the folder given back
      const back = await againAfter(coordinator, folder, ['w fs:/d/k']).promise;
      expect(back.fencingToken).toBeGreaterThan(folder.fencingToken ?? Infinity);
      expect(await sets(redis, namespace)).toEqual({
        present: ['=fs:/d/k'],
        entries: 1,
        leases: 1,
      });
      await back.release();
    } finally {
      await redis.close();
    }
  });
});
