import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../test-support/redis-server.js';
import { type RedisCoordinator, RedisCoordinatorError, redisCoordinator } from '../src/index.js';
import { describeWithRedis, lockRequest } from './fleet-fixture.js';

const TIMEOUT_MS = 200;

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

function coordinatorOn(url: string, options: { maxAccesses?: number } = {}): RedisCoordinator {
  const coordinator = redisCoordinator({
    url,
    namespace: 'bounds',
    timeoutMs: TIMEOUT_MS,
    ...options,
  });
  closing.push(() => coordinator.close());
  return coordinator;
}

/** A TCP listener that accepts connections and never writes a byte (a wedged proxy, a frozen peer). */
async function silentListener(): Promise<string> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return `redis://127.0.0.1:${port}`;
}

async function rejection(promise: Promise<unknown>): Promise<RedisCoordinatorError> {
  const error: unknown = await promise.then(
    () => new Error('expected acquire to reject'),
    (e: unknown) => e,
  );
  if (!(error instanceof RedisCoordinatorError)) throw error;
  return error;
}

describe('the first connection and every reply are bounded by timeoutMs', () => {
  it('a server that accepts the connection and never answers: acquire rejects `unavailable`, naming the wait', async () => {
    const coordinator = coordinatorOn(await silentListener());
    const error = await rejection(coordinator.acquire(lockRequest(['w fs:/a'])));
    expect(error.code).toBe('unavailable');
    expect(error.message).toMatch(
      new RegExp(
        `^Redis at redis://127\\.0\\.0\\.1:\\d+ is unavailable \\(no answer within ${TIMEOUT_MS} ms while connecting\\): the call did not run under fleet locks$`,
      ),
    );
    // and again, at once, while it still does not answer
    expect((await rejection(coordinator.acquire(lockRequest(['w fs:/a'])))).code).toBe(
      'unavailable',
    );
  });
});

describeWithRedis('a redis-server stopped before the first call', () => {
  let server: RedisServer;
  afterEach(async () => {
    server.signal('SIGCONT');
    await server.stop();
  });

  it('(SIGSTOP: the kernel accepts the connection, nothing answers) acquire rejects `unavailable`', async () => {
    server = await startRedisServer();
    server.signal('SIGSTOP');
    const coordinator = coordinatorOn(server.url);
    const error = await rejection(coordinator.acquire(lockRequest(['w fs:/a'])));
    expect(error.code).toBe('unavailable');
    expect(error.message).toContain(`no answer within ${TIMEOUT_MS} ms`);
  });
});

describe('at most `maxAccesses` accesses per call', () => {
  const accesses = (n: number) => Array.from({ length: n }, (_, i) => `w fs:/many/${i}`);

  it('a call with more is refused with a clear error, and nothing is sent', async () => {
    const coordinator = coordinatorOn('redis://127.0.0.1:1');
    const error = await rejection(
      coordinator.acquire(lockRequest(accesses(1001), { toolName: 'sweep' })),
    );
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(
      /^Cannot lock the 1001 accesses of call call-\d+ \(sweep\): at most 1000 accesses per call \(the coordinator's `maxAccesses`\); nothing was sent to Redis$/,
    );
    expect(coordinator.roundTrips).toBe(0);
  });

  it('the bound is an option, checked when the coordinator is made', async () => {
    const coordinator = coordinatorOn('redis://127.0.0.1:1', { maxAccesses: 3 });
    const error = await rejection(coordinator.acquire(lockRequest(accesses(4))));
    expect(error.message).toContain('at most 3 accesses per call');
    expect(coordinator.roundTrips).toBe(0);
    expect(() => redisCoordinator({ namespace: 'n', maxAccesses: 0 })).toThrow(
      'Expected `maxAccesses` to be an integer from 1 and up, got `0` (number)',
    );
  });

  it('a key containing NUL is refused before Redis is asked', async () => {
    const coordinator = coordinatorOn('redis://127.0.0.1:1');
    const error = await rejection(coordinator.acquire(lockRequest(['w fs:/a\u0000b'])));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain('without NUL characters');
    expect(coordinator.roundTrips).toBe(0);
  });
});
