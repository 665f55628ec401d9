import { describeValue } from '@toolwaves/core';
import type { RedisClientLike } from './redis-client-like.js';
import { RedisCoordinatorError } from './redis-coordinator-error.js';

/**
 * Options of {@link redisCoordinator}.
 *
 * @see redisCoordinator
 */
export interface RedisCoordinatorOptions {
  /** Where Redis listens, e.g. `redis://localhost:6379`; used when no `client` is given. */
  readonly url?: string;
  /**
   * A node-redis client (`createClient()` from `redis` or `@redis/client`) to share; the
   * coordinator never closes it and opens one duplicate of it for its subscription. Create it
   * with `disableOfflineQueue: true` so commands fail at once while Redis is away.
   */
  readonly client?: RedisClientLike;
  /** Separates deployments sharing one Redis: every key and channel lives under it. */
  readonly namespace: string;
  /**
   * How long a lease lives without renewal, in ms (default 10 000): a process that dies frees
   * its locks at most this long after its last renewal. Renewed every third of it.
   */
  readonly leaseMs?: number;
  /** Fleet-wide cap per tool name: at most `n` calls of that tool run at once in the fleet. */
  readonly limits?: Readonly<Record<string, number>>;
}

/** The options after checking, with defaults applied. */
export interface CheckedCoordinatorOptions {
  readonly url: string;
  readonly client: RedisClientLike | undefined;
  readonly namespace: string;
  readonly leaseMs: number;
  readonly limits: ReadonlyMap<string, number>;
}

const DEFAULT_URL = 'redis://localhost:6379';
const DEFAULT_LEASE_MS = 10_000;
/** Below this a lease cannot be renewed reliably over a network. */
const MIN_LEASE_MS = 50;

/**
 * Checks the options of {@link redisCoordinator} and fills in the defaults; a wrong one throws
 * {@link RedisCoordinatorError} `invalid_options` naming the field and the value.
 */
export function checkCoordinatorOptions(
  options: RedisCoordinatorOptions,
): CheckedCoordinatorOptions {
  if (typeof options !== 'object' || options === null) {
    throw invalid(
      `Expected the options of redisCoordinator to be an object with a \`namespace\`, got ${describeValue(options)}`,
    );
  }
  const { url, client, namespace, leaseMs, limits } = options;
  if (typeof namespace !== 'string' || namespace.length === 0) {
    throw invalid(
      `Expected \`namespace\` to be a non-empty string, got ${describeValue(namespace)}`,
    );
  }
  if (url !== undefined && (typeof url !== 'string' || !/^rediss?:\/\//.test(url))) {
    throw invalid(`Expected \`url\` to be a redis:// or rediss:// URL, got ${describeValue(url)}`);
  }
  if (
    client !== undefined &&
    (typeof client !== 'object' || client === null || typeof client.sendCommand !== 'function')
  ) {
    throw invalid(`Expected \`client\` to be a node-redis client, got ${describeValue(client)}`);
  }
  if (url !== undefined && client !== undefined) {
    throw invalid('Expected either `url` or `client`, got both');
  }
  if (leaseMs !== undefined && (!Number.isInteger(leaseMs) || leaseMs < MIN_LEASE_MS)) {
    throw invalid(
      `Expected \`leaseMs\` to be an integer from ${MIN_LEASE_MS} and up, got ${describeValue(leaseMs)}`,
    );
  }
  return {
    url: url ?? DEFAULT_URL,
    client,
    namespace,
    leaseMs: leaseMs ?? DEFAULT_LEASE_MS,
    limits: checkLimits(limits),
  };
}

function checkLimits(limits: unknown): ReadonlyMap<string, number> {
  const checked = new Map<string, number>();
  if (limits === undefined) return checked;
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) {
    throw invalid(
      `Expected \`limits\` to be an object of tool names to counts, got ${describeValue(limits)}`,
    );
  }
  for (const [name, n] of Object.entries(limits)) {
    if (!Number.isInteger(n) || (n as number) < 1) {
      throw invalid(
        `Expected \`limits.${name}\` to be an integer from 1 and up, got ${describeValue(n)}`,
      );
    }
    checked.set(name, n as number);
  }
  return checked;
}

function invalid(message: string): RedisCoordinatorError {
  return new RedisCoordinatorError({ code: 'invalid_options', message });
}
