import { createClient } from '@redis/client';
import { expect, it } from 'vitest';
import {
  coordinatorFor,
  describeWithRedis,
  freshNamespace,
  lockRequest,
  redisUrl,
  releaseAll,
  settleEarlierRequests,
} from './fleet-fixture.js';

describeWithRedis('releases gathered into one call', () => {
  it('takes out every entry of a batch of more than a thousand, and the keys are free again', async () => {
    const namespace = freshNamespace();
    const coordinator = coordinatorFor({ namespace });
    const other = coordinatorFor({ namespace });
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    const name = (set: string) => `toolwaves:{${namespace}}:${set}`;
    try {
      // 6 calls of 250 writes each, asked (and so granted) together, released together:
      // 1 500 entries leave in one release call
      const requests = Array.from({ length: 6 }, (_, call) =>
        lockRequest(Array.from({ length: 250 }, (_, i) => `w fs:/batch/c${call}/f${i}`)),
      );
      const grants = await Promise.all(requests.map((request) => coordinator.acquire(request)));
      expect(await redis.zCard(name('entries'))).toBe(1500);
      await releaseAll(grants);
      // the probe is sent after the release call and answered after it ran
      await settleEarlierRequests(coordinator);
      expect(await redis.zCard(name('entries'))).toBe(0);
      expect(await redis.zCard(name('present'))).toBe(0);
      expect(await redis.zCard(name('leases'))).toBe(0);
      const again = await other.acquire(lockRequest(['w fs:/batch/c5/f249', 'r fs:/batch/c0']));
      await again.release();
    } finally {
      await redis.close();
    }
  });
});
