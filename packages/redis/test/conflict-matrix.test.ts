import { keysOverlap } from '@toolwaves/planner';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  coordinatorFor,
  describeWithRedis,
  freshNamespace,
  lockRequest,
  settleEarlierRequests,
  tracked,
} from './fleet-fixture.js';

/** The rule, written plainly: overlapping keys (planner's `keysOverlap`) and at least one write. */
function shouldConflict(a: string, b: string): boolean {
  const [modeA, keyA] = [a[0], a.slice(2)];
  const [modeB, keyB] = [b[0], b.slice(2)];
  return (modeA === 'w' || modeB === 'w') && keysOverlap(keyA, keyB);
}

/** Holds `held` from one coordinator, asks for `asked` from another: does it have to wait? */
async function waitsFor(held: string, asked: string, namespace: string): Promise<boolean> {
  const holder = coordinatorFor({ namespace });
  const other = coordinatorFor({ namespace });
  const grant = await holder.acquire(lockRequest([held]));
  const second = tracked(other.acquire(lockRequest([asked])));
  await settleEarlierRequests(other);
  const waited = second.status === 'pending';
  await grant.release();
  const secondGrant = await second.promise;
  await secondGrant.release();
  return waited;
}

describeWithRedis('fleet locks: the conflict rule of the planner', () => {
  it.each([
    ['w fs:/repo/a', 'r fs:/repo', true],
    ['w fs:/repo/a', 'r fs:/repo/a/b', true],
    ['w fs:/repo/a', 'w fs:/repo/a', true],
    ['r fs:/repo', 'w fs:/repo/a/b.ts', true],
    ['r fs:/repo/a', 'r fs:/repo/a', false],
    ['r fs:/repo', 'r fs:/repo/a', false],
    ['w fs:/repo/a', 'w fs:/repo/ab', false],
    ['w fs:/repo/a', 'r fs:/repo/b', false],
    ['w fs:/repo/', 'r fs:/repo/x', true],
    ['w ticket:1', 'w ticket:12', false],
  ])('holding %s, a request for %s waits: %s', async (held, asked, expected) => {
    expect(await waitsFor(held, asked, freshNamespace())).toBe(expected);
  });

  it('agrees with keysOverlap and the read/write rule on generated keys', async () => {
    const segment = fc.constantFrom('a', 'b', 'ab', 'a/', '');
    const access = fc
      .tuple(fc.constantFrom('r', 'w'), fc.array(segment, { minLength: 1, maxLength: 3 }))
      .map(([mode, parts]) => `${mode} k:/${parts.join('/')}`);
    await fc.assert(
      fc.asyncProperty(access, access, async (held, asked) => {
        expect(await waitsFor(held, asked, freshNamespace())).toBe(shouldConflict(held, asked));
      }),
      { numRuns: 200 },
    );
  });

  it('takes all of a request`s keys or none: a waiting request holds nothing', async () => {
    const namespace = freshNamespace();
    const coordinator = coordinatorFor({ namespace });
    const onC = await coordinator.acquire(lockRequest(['w c']));
    const onA = await coordinator.acquire(lockRequest(['w a']));
    // queued first: waits for c
    const first = tracked(coordinator.acquire(lockRequest(['w b', 'w c'])));
    // queued second: waits for a (held) and for b (wanted by an earlier waiter)
    const second = tracked(coordinator.acquire(lockRequest(['w b', 'w a'])));
    await settleEarlierRequests(coordinator);
    expect([first.status, second.status]).toEqual(['pending', 'pending']);
    await onC.release();
    // if the second had taken b while waiting for a, the first could not get b now
    const firstGrant = await first.promise;
    await settleEarlierRequests(coordinator);
    expect(second.status).toBe('pending');
    await firstGrant.release();
    await settleEarlierRequests(coordinator);
    expect(second.status).toBe('pending');
    await onA.release();
    await (await second.promise).release();
  });

  it('never deadlocks on keys asked in opposite orders by two processes', async () => {
    const namespace = freshNamespace();
    const one = coordinatorFor({ namespace });
    const two = coordinatorFor({ namespace });
    let inside = 0;
    let overlaps = 0;
    const loop = async (coordinator: typeof one, keys: string[]) => {
      for (let round = 0; round < 25; round += 1) {
        const grant = await coordinator.acquire(lockRequest(keys));
        inside += 1;
        if (inside > 1) overlaps += 1;
        await new Promise((resolve) => setImmediate(resolve));
        inside -= 1;
        await grant.release();
      }
    };
    await Promise.all([loop(one, ['w x', 'w y']), loop(two, ['w y', 'w x'])]);
    expect(overlaps).toBe(0);
  });

  it('a waiter is not retried for releases of keys it does not wait for, and is woken by the one it does', async () => {
    const namespace = freshNamespace();
    const holder = coordinatorFor({ namespace });
    const waiting = coordinatorFor({ namespace });
    const churn = coordinatorFor({ namespace });
    const onA = await holder.acquire(lockRequest(['w fs:/a']));
    const second = tracked(waiting.acquire(lockRequest(['w fs:/a'])));
    await settleEarlierRequests(waiting);
    const tripsBefore = waiting.roundTrips;
    for (let i = 0; i < 10; i += 1) {
      const other = await churn.acquire(lockRequest(['w fs:/b']));
      await other.release();
    }
    await settleEarlierRequests(churn);
    // ten unrelated releases: at most a fallback poll (one per second) in between, not ten retries
    expect(waiting.roundTrips - tripsBefore).toBeLessThanOrEqual(2);
    expect(second.status).toBe('pending');
    await onA.release();
    await (await second.promise).release();
  });
});
