import type { CoordinationRequest } from '@toolwaves/core';
import { RedisCoordinatorError } from './redis-coordinator-error.js';

/**
 * The one fleet limit a request counts against: the named limit it declares (`request.limits`)
 * that the coordinator has, else its tool's name (a limit by that name, or none). Redis counts one
 * limit per call, one unit per call: a request that declares two of the coordinator's limits, or
 * a weight other than 1, is refused (`invalid_request`, nothing sent), so it never runs with less
 * held than it declared.
 */
export function fleetLimitOf(
  request: CoordinationRequest,
  limits: ReadonlyMap<string, number>,
): string | RedisCoordinatorError {
  const named = Object.entries(request.limits ?? {}).filter(([name]) => limits.has(name));
  if (named.length === 0) return request.toolName;
  const call = `call ${request.toolCallId} (${request.toolName})`;
  const [name, weight] = named[0]!;
  const tooMany = named.length > 1 || (limits.has(request.toolName) && request.toolName !== name);
  if (tooMany) {
    const names = [
      ...named.map(([n]) => n),
      ...(limits.has(request.toolName) ? [request.toolName] : []),
    ];
    return new RedisCoordinatorError({
      code: 'invalid_request',
      message: `Cannot hold the fleet limits ${names.map((n) => `\`${n}\``).join(', ')} of ${call}: the Redis coordinator counts one limit per call; nothing was sent to Redis`,
    });
  }
  if (weight !== 1) {
    return new RedisCoordinatorError({
      code: 'invalid_request',
      message: `Cannot hold weight ${weight} in the fleet limit \`${name}\` for ${call}: the Redis coordinator counts one unit per call; nothing was sent to Redis`,
    });
  }
  return name;
}
