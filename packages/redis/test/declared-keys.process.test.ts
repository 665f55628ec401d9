import { createClient } from '@redis/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../test-support/redis-server.js';
import { redisCoordinator } from '../src/index.js';
import { describeWithRedis, lockRequest, tracked } from './fleet-fixture.js';

/** The quoted arguments of a `MONITOR` line, unescaped (Redis writes them with `sdscatrepr`). */
function monitoredArguments(line: string): string[] {
  const found: string[] = [];
  for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
    found.push(
      (match[1] as string).replace(/\\(x[0-9a-f]{2}|.)/g, (_, e: string) => {
        if (e.startsWith('x') && e.length === 3)
          return String.fromCharCode(Number.parseInt(e.slice(1), 16));
        return { n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b' }[e] ?? e;
      }),
    );
  }
  return found;
}

describeWithRedis('scripts declare every key they touch', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  /*
   * Redis Cluster and Dragonfly need every key a script reads or writes passed in KEYS. Redis
   * itself does not check it, so the test watches: MONITOR shows each script call with its KEYS,
   * then every command the script ran (`[0 lua]`). Every argument of those commands that names
   * a key of the namespace must be one of that call's KEYS.
   */
  it('in every path: grants, waits, hand-offs, limits, the exclusive lock, cancellation, renewals, expiry', async () => {
    const namespace = 'declared';
    const prefix = `toolwaves:{${namespace}}:`;
    const monitor = createClient({ url: server.url });
    await monitor.connect();
    const lines: string[] = [];
    await monitor.monitor((line) => lines.push(line));
    const options = { url: server.url, namespace, leaseMs: 300, limits: { edit: 1 } };
    const one = redisCoordinator(options);
    const two = redisCoordinator(options);
    try {
      const a = await one.acquire(lockRequest(['w fs:/r/a', 'r fs:/r'], { toolName: 'edit' }));
      const b = tracked(two.acquire(lockRequest(['w fs:/r/a', 'r fs:/r'], { toolName: 'edit' })));
      const c = tracked(two.acquire(lockRequest(['r fs:/r/a/x'], { toolName: 'read' })));
      const stop = new AbortController();
      const d = tracked(two.acquire({ ...lockRequest(['w fs:/'], { signal: stop.signal }) }));
      await new Promise((resolve) => setTimeout(resolve, 400)); // renewals and polls
      stop.abort();
      await d.promise.catch(() => undefined);
      await a.release(); // hands fs:/r/a over to b
      await (await b.promise).release();
      await (await c.promise).release();
      const whole = await one.acquire({ ...lockRequest([]), exclusive: true });
      await whole.release();
      // a holder that dies: its entry is swept by the next script
      const dead = redisCoordinator(options);
      await dead.acquire(lockRequest(['w fs:/gone']));
      await dead.close();
      await new Promise((resolve) => setTimeout(resolve, 400));
      await (await one.acquire(lockRequest(['w fs:/gone']))).release();
    } finally {
      await one.close();
      await two.close();
      await monitor.close();
    }

    let declared: string[] | undefined;
    let scripts = 0;
    const undeclared: string[] = [];
    for (const line of lines) {
      const args = monitoredArguments(line);
      const command = args[0]?.toUpperCase();
      if (command === 'EVALSHA' || command === 'EVAL') {
        const count = Number(args[2]);
        declared = args.slice(3, 3 + count);
        scripts += 1;
      } else if (line.includes(' lua] ') && command !== 'PUBLISH') {
        for (const arg of args.slice(1)) {
          if (arg.startsWith(prefix) && !declared?.includes(arg))
            undeclared.push(`${args.join(' ')}`);
        }
      }
    }
    expect(scripts).toBeGreaterThan(10);
    expect(undeclared).toEqual([]);
  });
});
