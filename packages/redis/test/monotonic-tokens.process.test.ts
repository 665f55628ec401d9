import { createClient } from '@redis/client';
import { expect, it, type TestContext, vi } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../test-support/redis-server.js';
import { type RedisCoordinator, redisCoordinator } from '../src/index.js';
import { describeWithRedis, lockRequest, TEST_LEASE_MS } from './fleet-fixture.js';

/**
 * The servers and coordinators of one test, stopped when it ends: the two scenarios run at once
 * (each mostly waits for a server to restart or a replica to catch up), each on servers of its own.
 */
function scenario(context: TestContext) {
  const servers: RedisServer[] = [];
  const coordinators: RedisCoordinator[] = [];
  context.onTestFinished(async () => {
    for (const c of coordinators.splice(0)) await c.close();
    for (const s of servers.splice(0)) await s.stop();
  });
  return {
    async server(): Promise<RedisServer> {
      const started = await startRedisServer();
      servers.push(started);
      return started;
    },
    coordinatorOn(target: RedisServer): RedisCoordinator {
      const made = redisCoordinator({
        url: target.url,
        namespace: 'tokens',
        leaseMs: TEST_LEASE_MS,
      });
      coordinators.push(made);
      return made;
    },
  };
}

/** Takes and gives back `n` grants, on keys that overlap and keys that do not; their tokens. */
async function grants(coordinator: RedisCoordinator, n: number): Promise<number[]> {
  const tokens: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const grant = await vi.waitFor(
      () => coordinator.acquire(lockRequest([`w fs:/repo/${i % 3 === 0 ? '' : `f${i}`}`])),
      { timeout: 10_000, interval: 50 },
    );
    tokens.push(grant.fencingToken ?? Number.NaN);
    await grant.release();
  }
  return tokens;
}

async function command(target: RedisServer, args: string[]): Promise<string> {
  const client = createClient({ url: target.url });
  await client.connect();
  try {
    return String(await client.sendCommand(args));
  } finally {
    await client.close();
  }
}

function strictlyIncreasing(tokens: readonly number[]): boolean {
  return tokens.every((t, i) => i === 0 || t > (tokens[i - 1] as number));
}

describeWithRedis('fencing tokens never go backwards', () => {
  it.concurrent('across a Redis restart that lost every key (no persistence)', async (context) => {
    const { server, coordinatorOn } = scenario(context);
    const redis = await server();
    const coordinator = coordinatorOn(redis);
    const before = await grants(coordinator, 20);
    expect(strictlyIncreasing(before)).toBe(true);

    await redis.stop();
    await redis.start(); // empty: the fence counter is gone
    expect(await command(redis, ['DBSIZE'])).toBe('0');

    const after = await grants(coordinator, 5);
    expect(strictlyIncreasing(after)).toBe(true);
    expect(Math.min(...after)).toBeGreaterThan(Math.max(...before));
  });

  it.concurrent('across the promotion of a replica that had not received the latest grants', async (context) => {
    const { server, coordinatorOn } = scenario(context);
    const primary = await server();
    const replica = await server();
    await command(replica, ['REPLICAOF', '127.0.0.1', String(primary.port)]);
    const onPrimary = coordinatorOn(primary);
    const replicated = await grants(onPrimary, 10);
    await vi.waitFor(
      async () => {
        expect(await command(replica, ['INFO', 'replication'])).toContain('master_link_status:up');
        expect(await command(replica, ['GET', 'toolwaves:{tokens}:fence'])).toBe(
          String(replicated.at(-1)),
        );
      },
      { timeout: 10_000, interval: 50 },
    );

    // the replica is cut off (as by a partition), the primary goes on granting, then dies:
    // the replica, promoted, never saw these grants
    await command(replica, ['REPLICAOF', 'NO', 'ONE']);
    const unreplicated = await grants(onPrimary, 10);
    await primary.stop();
    expect(Number(await command(replica, ['GET', 'toolwaves:{tokens}:fence']))).toBeLessThan(
      Math.max(...unreplicated),
    );

    const onPromoted = coordinatorOn(replica);
    const after = await grants(onPromoted, 5);
    const before = [...replicated, ...unreplicated];
    expect(strictlyIncreasing(before)).toBe(true);
    expect(strictlyIncreasing(after)).toBe(true);
    expect(Math.min(...after)).toBeGreaterThan(Math.max(...before));
  });
});
