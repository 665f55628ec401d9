import { checkOption, checkOptions, type OptionRule, optionRules } from '@toolwaves/core/internal';
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
  /**
   * How long connecting, and each command, may take before it fails with `unavailable`, in ms
   * (default 5 000): an `acquire` on a half-open link fails instead of hanging.
   */
  readonly timeoutMs?: number;
  /**
   * The most accesses one call may ask for (default 1 000): a call declaring more is refused
   * with `invalid_request` and nothing is sent (one request's script holds Redis for its whole
   * run; 120 000 accesses would block every other client for seconds).
   */
  readonly maxAccesses?: number;
}

/** The options after checking, with defaults applied. */
export interface CheckedCoordinatorOptions {
  readonly url: string;
  readonly client: RedisClientLike | undefined;
  readonly namespace: string;
  readonly leaseMs: number;
  readonly limits: ReadonlyMap<string, number>;
  readonly timeoutMs: number;
  readonly maxAccesses: number;
}

const DEFAULT_URL = 'redis://localhost:6379';
const DEFAULT_LEASE_MS = 10_000;
const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_ACCESSES = 1000;
/** Below this a lease cannot be renewed reliably over a network. */
const MIN_LEASE_MS = 50;

/**
 * Checks the options of {@link redisCoordinator} and fills in the defaults; a wrong one throws
 * {@link RedisCoordinatorError} `invalid_options` naming the field and the value.
 */
export function checkCoordinatorOptions(
  options: RedisCoordinatorOptions,
): CheckedCoordinatorOptions {
  checkOptions({
    subject: 'redisCoordinator',
    options,
    expected: 'an object with a `namespace`',
    rules: {},
    // each checked below, in its own terms: here only an unknown key is refused
    checkedApart: ['url', 'client', 'namespace', 'leaseMs', 'limits', 'timeoutMs', 'maxAccesses'],
    error: invalid,
  });
  const namespace = checkOption({
    name: 'namespace',
    value: options.namespace,
    rule: optionRules.nonEmptyString,
    error: invalid,
  });
  const url = checkOption({
    name: 'url',
    value: options.url,
    rule: REDIS_URL,
    default: DEFAULT_URL,
    error: invalid,
  });
  const client = options.client;
  if (client !== undefined) {
    checkOption({ name: 'client', value: client, rule: NODE_REDIS_CLIENT, error: invalid });
    if (options.url !== undefined) throw invalid('Expected either `url` or `client`, got both');
  }
  const leaseMs = checkOption({
    name: 'leaseMs',
    value: options.leaseMs,
    rule: optionRules.integerFrom(MIN_LEASE_MS),
    default: DEFAULT_LEASE_MS,
    error: invalid,
  });
  const timeoutMs = checkOption({
    name: 'timeoutMs',
    value: options.timeoutMs,
    rule: optionRules.integerFrom(1),
    default: DEFAULT_TIMEOUT_MS,
    error: invalid,
  });
  const maxAccesses = checkOption({
    name: 'maxAccesses',
    value: options.maxAccesses,
    rule: optionRules.integerFrom(1),
    default: DEFAULT_MAX_ACCESSES,
    error: invalid,
  });
  const limits = checkLimits(options.limits);
  return { url, client, namespace, leaseMs, limits, timeoutMs, maxAccesses };
}

const REDIS_URL: OptionRule<string> = {
  expected: 'a redis:// or rediss:// URL',
  test: (value): value is string => typeof value === 'string' && /^rediss?:\/\//.test(value),
};

const NODE_REDIS_CLIENT: OptionRule<RedisClientLike> = {
  expected: 'a node-redis client',
  test: (value): value is RedisClientLike =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<RedisClientLike>).sendCommand === 'function',
};

function checkLimits(limits: unknown): ReadonlyMap<string, number> {
  const checked = new Map<string, number>();
  if (limits === undefined) return checked;
  checkOption({
    name: 'limits',
    value: limits,
    rule: { ...optionRules.object, expected: 'an object of tool names to counts' },
    error: invalid,
  });
  for (const [name, n] of Object.entries(limits as Record<string, unknown>)) {
    checked.set(
      name,
      checkOption({
        name: `limits.${name}`,
        value: n,
        rule: optionRules.integerFrom(1),
        error: invalid,
      }),
    );
  }
  return checked;
}

function invalid(message: string): RedisCoordinatorError {
  return new RedisCoordinatorError({ code: 'invalid_options', message });
}
