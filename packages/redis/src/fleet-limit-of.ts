import type { CoordinationRequest } from '@toolwaves/core';
import { RedisCoordinatorError } from './redis-coordinator-error.js';

/**
 * The one fleet limit a request counts against: the named limit it declares (`request.limits`)
 * that the coordinator has, else its tool's name (a limit by that name, or none). Redis counts one
 * limit per call, one unit per call: a request that declares two of the coordinator's limits, or
 * a weight other than 1, is refused (`invalid_request`, nothing sent), so it never runs with less
 * held than it declared. The refusal names every limit the call would count against, with its
 * weight and capacity, so that the declaration to change is plain.
 */
export function fleetLimitOf(
  request: CoordinationRequest,
  limits: ReadonlyMap<string, number>,
): string | RedisCoordinatorError {
  const named = Object.entries(request.limits ?? {}).filter(([name]) => limits.has(name));
  if (named.length === 0) return request.toolName;
  const [name, weight] = named[0]!;
  // The tool's own limit counts too, with weight 1, unless the call declares it by name.
  const ownToo = limits.has(request.toolName) && !named.some(([n]) => n === request.toolName);
  const counted = ownToo ? [...named, [request.toolName, 1] as const] : named;
  if (counted.length === 1 && weight === 1) return name;
  const which = counted
    .map(([n, w]) => `\`${n}\` (weight ${w} of capacity ${limits.get(n)})`)
    .join(', ');
  const why = [
    ...(counted.length > 1 ? [`it counts against ${counted.length} limits`] : []),
    ...(counted.some(([, w]) => w !== 1) ? ['a weight is not 1'] : []),
  ].join(' and ');
  return new RedisCoordinatorError({
    code: 'invalid_request',
    message:
      `Cannot hold the fleet limits of call ${request.toolCallId} (${request.toolName}): ${which}; ` +
      `${why}, and the Redis coordinator counts one limit per call, one unit per call ` +
      `(see "Named limits" in the @toolwaves/redis README: declare at most one of the ` +
      `coordinator's limits with weight 1, or leave the others out of its \`limits\` to count ` +
      `them in each process); nothing was sent to Redis`,
  });
}
