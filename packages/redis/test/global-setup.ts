import type { TestProject } from 'vitest/node';
import {
  hasRedisServer,
  redisMissing,
  startRedisServer,
} from '../../../test-support/redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared test server, or `''` when `redis-server` is not installed. */
    redisUrl: string;
  }
}

/** Set once the missing server was reported: two projects of a whole run use this setup. */
const REPORTED = Symbol.for('toolwaves.redis-setup.missing-reported');

/**
 * Starts one `redis-server` for the project's tests (each test uses its own namespace) and
 * returns what stops it: a whole run has two projects with this setup, each with its server.
 */
export async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!hasRedisServer()) {
    const flags = globalThis as { [REPORTED]?: boolean };
    if (flags[REPORTED] !== true) console.warn(redisMissing('redis: the Redis tests'));
    flags[REPORTED] = true;
    project.provide('redisUrl', '');
    return undefined;
  }
  const server = await startRedisServer();
  project.provide('redisUrl', server.url);
  return () => server.stop();
}
