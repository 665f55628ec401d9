import type { TestProject } from 'vitest/node';
import {
  hasRedisServer,
  type RedisServer,
  redisMissing,
  startRedisServer,
} from '../../../test-support/redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared test server, or `''` when `redis-server` is not installed. */
    redisUrl: string;
  }
}

let server: RedisServer | undefined;

/** Starts one `redis-server` for the project's tests (each test uses its own namespace). */
export async function setup(project: TestProject): Promise<void> {
  if (!hasRedisServer()) {
    console.warn(redisMissing('redis: the Redis tests'));
    project.provide('redisUrl', '');
    return;
  }
  server = await startRedisServer();
  project.provide('redisUrl', server.url);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
