import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FleetConnection } from '../src/fleet-connection.js';
import { fleetKeys } from '../src/fleet-keys.js';
import { LeaseRenewal } from '../src/lease-renewal.js';
import type { RedisCoordinatorError } from '../src/redis-coordinator-error.js';

/**
 * A connection whose renewals the test answers by hand: each `run` is recorded with the
 * (virtual) time it was sent and stays pending until the test settles it.
 */
function scriptedConnection() {
  const sent: { at: number; answer(value: unknown): void; fail(error: unknown): void }[] = [];
  const connection = {
    run: () =>
      new Promise<unknown>((resolve, reject) => {
        sent.push({ at: performance.now(), answer: resolve, fail: reject });
      }),
  } as unknown as FleetConnection;
  return { connection, sent };
}

const LEASE = 1200;

function lease(connection: FleetConnection, options: { renewAtOnce?: boolean } = {}) {
  const losses: { at: number; error: RedisCoordinatorError }[] = [];
  const renewal = new LeaseRenewal({
    connection,
    keys: fleetKeys('t'),
    id: 'r1',
    leaseMs: LEASE,
    grantedFrom: performance.now(),
    describe: 'call c1 (edit_file) on write fs:/a',
    onLost: (error) => losses.push({ at: performance.now(), error }),
    ...options,
  });
  return { renewal, losses };
}

describe('a granted lease (virtual time)', () => {
  beforeEach(() => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'],
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is renewed every third of the lease for as long as it is held, and never lost while Redis confirms', async () => {
    const { connection, sent } = scriptedConnection();
    const { renewal, losses } = lease(connection);
    for (let i = 0; i < 30; i += 1) {
      await vi.advanceTimersByTimeAsync(LEASE / 3);
      sent.at(-1)?.answer(1);
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(losses).toEqual([]);
    expect(sent.length).toBe(30); // ten leases long: a renewal every 400 ms
    renewal.stop();
    await vi.advanceTimersByTimeAsync(5 * LEASE);
    expect(sent.length).toBe(30);
    expect(losses).toEqual([]);
  });

  it('is lost by a timer at the deadline of its last confirmed renewal minus a fifth of the lease, before Redis lets it go', async () => {
    const start = performance.now();
    const { connection, sent } = scriptedConnection();
    const { losses } = lease(connection);
    await vi.advanceTimersByTimeAsync(LEASE / 3); // first renewal sent at 400
    expect(sent.map((s) => s.at - start)).toEqual([400]);
    await vi.advanceTimersByTimeAsync(10);
    sent[0]?.answer(1); // confirmed: valid until 400 + 1200, lost at 1600 - 240
    await vi.advanceTimersByTimeAsync(0);
    // later renewals hang (a frozen link): nothing else is confirmed
    await vi.advanceTimersByTimeAsync(1360 - 410 - 1);
    expect(losses).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(losses.map((l) => l.at - start)).toEqual([1360]);
    expect(losses[0]?.error.code).toBe('lease_lost');
    expect(losses[0]?.error.message).toBe(
      'Lost the fleet lease of call c1 (edit_file) on write fs:/a: it could not be renewed in time',
    );
  });

  it('retries failed renewals until the loss timer, and is lost at once when Redis answers the lease is gone', async () => {
    const start = performance.now();
    const { connection, sent } = scriptedConnection();
    const { losses } = lease(connection);
    await vi.advanceTimersByTimeAsync(LEASE / 3);
    sent[0]?.fail(new Error('connection reset'));
    await vi.advanceTimersByTimeAsync(LEASE / 10); // tried again 120 ms later
    expect(sent.map((s) => s.at - start)).toEqual([400, 520]);
    expect(losses).toEqual([]);
    sent[1]?.answer(0); // Redis: no such lease (it expired, or the server lost its data)
    await vi.advanceTimersByTimeAsync(0);
    expect(losses.map((l) => l.at - start)).toEqual([520]);
    expect(losses[0]?.error.message).toMatch(/Redis no longer holds it/);
  });

  it('a grant handed over by a release is renewed at once, its deadline counted from when it arrived', async () => {
    const start = performance.now();
    const { connection, sent } = scriptedConnection();
    const { losses } = lease(connection, { renewAtOnce: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((s) => s.at - start)).toEqual([0]);
    await vi.advanceTimersByTimeAsync(LEASE); // never confirmed
    expect(losses.map((l) => l.at - start)).toEqual([960]);
  });
});
