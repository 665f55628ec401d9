import type { CoordinationGrant } from '@toolwaves/core';
import { expect, it } from 'vitest';
import { RedisCoordinatorError } from '../src/index.js';
import {
  coordinatorFor,
  describeWithRedis,
  freshNamespace,
  lockRequest,
  settleEarlierRequests,
  tracked,
} from './fleet-fixture.js';

describeWithRedis('fleet limits', () => {
  it('caps the calls of a tool running at once across processes, in queue order', async () => {
    const namespace = freshNamespace();
    const limits = { charge_card: 2 };
    const one = coordinatorFor({ namespace, limits });
    const two = coordinatorFor({ namespace, limits });
    const ask = (coordinator: typeof one) =>
      tracked(coordinator.acquire(lockRequest([], { toolName: 'charge_card' })));
    const a = ask(one);
    const b = ask(two);
    await settleEarlierRequests(one);
    await settleEarlierRequests(two);
    const c = ask(one);
    const d = ask(one);
    const other = tracked(one.acquire(lockRequest([], { toolName: 'send_email' })));
    await settleEarlierRequests(one);
    expect([a, b, c, d, other].map((t) => t.status)).toEqual([
      'resolved',
      'resolved',
      'pending',
      'pending',
      'resolved',
    ]);
    await (a.value as CoordinationGrant).release();
    await c.promise;
    await settleEarlierRequests(one);
    expect(d.status).toBe('pending');
    await (b.value as CoordinationGrant).release();
    await (await d.promise).release();
    await (await c.promise).release();
  });

  it('a tool without a limit and without accesses holds nothing and gets no token', async () => {
    const coordinator = coordinatorFor({ namespace: freshNamespace() });
    const grant = await coordinator.acquire(lockRequest([], { toolName: 'think' }));
    expect(grant.fencingToken).toBeUndefined();
    expect(coordinator.roundTrips).toBe(0);
    await grant.release();
  });
});

describeWithRedis('cancellation while waiting', () => {
  it('an aborted signal stops the wait, leaves the queue and rejects with `cancelled`', async () => {
    const coordinator = coordinatorFor({ namespace: freshNamespace() });
    const holder = await coordinator.acquire(lockRequest(['w fs:/a']));
    const stop = new AbortController();
    const waiting = tracked(coordinator.acquire(lockRequest(['w fs:/a'], { signal: stop.signal })));
    await settleEarlierRequests(coordinator);
    expect(waiting.status).toBe('pending');

    stop.abort(new Error('user pressed Ctrl-C'));
    const error: unknown = await waiting.promise.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisCoordinatorError);
    expect((error as RedisCoordinatorError).code).toBe('cancelled');
    expect((error as RedisCoordinatorError).message).toContain('cancelled');

    // it left the queue: a later reader is not held back by it once the holder releases
    await holder.release();
    const reader = tracked(coordinator.acquire(lockRequest(['r fs:/a'])));
    await settleEarlierRequests(coordinator);
    expect(reader.status).toBe('resolved');
    await (await reader.promise).release();
  });

  it('a signal aborted before asking rejects without queueing', async () => {
    const coordinator = coordinatorFor({ namespace: freshNamespace() });
    const stop = new AbortController();
    stop.abort();
    await expect(
      coordinator.acquire(lockRequest(['w fs:/a'], { signal: stop.signal })),
    ).rejects.toMatchObject({ code: 'cancelled' });
    const next = await coordinator.acquire(lockRequest(['w fs:/a']));
    await next.release();
  });
});
