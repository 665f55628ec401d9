import { describe, expect, it } from 'vitest';
import {
  RedisCoordinatorError,
  type RedisCoordinatorOptions,
  redisCoordinator,
} from '../src/index.js';
import { lockRequest } from './fleet-fixture.js';

function failure(options: unknown): RedisCoordinatorError {
  try {
    redisCoordinator(options as RedisCoordinatorOptions);
  } catch (error) {
    if (error instanceof RedisCoordinatorError) return error;
    throw error;
  }
  throw new Error('expected redisCoordinator to throw');
}

describe('redisCoordinator options', () => {
  it.each([
    [
      null,
      'Expected the options of redisCoordinator to be an object with a `namespace`, got `null` (null)',
    ],
    [
      { namespace: 'n', url: 'redis://h:1', client: { sendCommand: () => undefined } },
      'Expected either `url` or `client`, got both',
    ],
    [{}, 'Expected `namespace` to be a non-empty string, got `undefined` (undefined)'],
    [{ namespace: '' }, 'Expected `namespace` to be a non-empty string, got `""` (string)'],
    [
      { namespace: 'n', leaseMs: 0 },
      'Expected `leaseMs` to be an integer from 50 and up, got `0` (number)',
    ],
    [
      { namespace: 'n', url: 'localhost:6379' },
      'Expected `url` to be a redis:// or rediss:// URL, got `"localhost:6379"` (string)',
    ],
    [
      { namespace: 'n', limits: { api: 0 } },
      'Expected `limits.api` to be an integer from 1 and up, got `0` (number)',
    ],
    [
      { namespace: 'n', client: {} },
      'Expected `client` to be a node-redis client, got `{}` (object)',
    ],
  ])('%j → %s', (options, message) => {
    const error = failure(options);
    expect(error.code).toBe('invalid_options');
    expect(error.message).toBe(message);
  });
});

describe('malformed requests', () => {
  it('an access with a mode other than read or write is refused before Redis is asked', async () => {
    const coordinator = redisCoordinator({ url: 'redis://127.0.0.1:1', namespace: 'n' });
    const request = { ...lockRequest([]), access: [{ key: 'fs:/a', mode: 'append' }] };
    await expect(coordinator.acquire(request as never)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('{"key":"fs:/a","mode":"append"}'),
    });
    expect(coordinator.roundTrips).toBe(0);
    await coordinator.close();
  });
});

describe('Redis out of reach', () => {
  it('acquire rejects with `unavailable`, naming where without credentials', async () => {
    const coordinator = redisCoordinator({
      url: 'redis://user:secret@127.0.0.1:1',
      namespace: 'nowhere',
    });
    const error: unknown = await coordinator
      .acquire(lockRequest(['w fs:/a']))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisCoordinatorError);
    expect((error as RedisCoordinatorError).code).toBe('unavailable');
    expect((error as RedisCoordinatorError).message).toMatch(
      /^Redis at redis:\/\/127\.0\.0\.1:1 is unavailable \(.*ECONNREFUSED.*\): the call did not run under fleet locks$/,
    );
    await coordinator.close();
    await expect(coordinator.acquire(lockRequest(['w fs:/a']))).rejects.toMatchObject({
      code: 'closed',
    });
  });
});
