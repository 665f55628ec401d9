import { createHash } from 'node:crypto';
import type { Access } from '@toolwaves/core';
import type { FleetKeys } from './fleet-keys.js';

/** The keys of one request, in the order the scripts take them (see `fleet-scripts.ts`). */
export interface RequestKeys {
  /** `KEYS`: the namespace's fixed names, the tool's waiters, the group, then the indexes. */
  readonly keys: readonly string[];
  /** 1-based positions in `keys` of the indexes the request is entered in. */
  readonly entered: readonly number[];
  /** 1-based positions in `keys` of the indexes that hold the requests it conflicts with. */
  readonly conflicting: readonly number[];
  /** The accesses as the release channel announces them: `[["r"|"w", key], ...]`, or `*` (exclusive). */
  readonly announced: string;
  /** The request's group: same tool, accesses, limit and exclusivity (a hand-off stays inside it). */
  readonly group: string;
}

/**
 * Every Redis key a request's scripts touch, so that they are all passed in `KEYS` (Redis
 * Cluster and Dragonfly need that): the fixed names, the tool's waiting list, its group, and the
 * indexes of its accesses. For an access to `K`:
 * - it is entered in `at:<mode>:K` and in `under:<mode>:X` for `K` and every ancestor `X` of `K`;
 * - its conflicts are found in `at:…:A` for every ancestor `A` (a holder of a folder above it),
 *   and in `under:…:K` (a holder of `K` or of anything below it); a read looks only at writes.
 * An exclusive request is entered in no index and looks at the namespace's holders and queue.
 * Ancestors follow the planner's `keysOverlap`: `fs:/a` and `fs:/` are ancestors of `fs:/a/b`.
 */
export function requestKeys(
  keys: FleetKeys,
  request: {
    readonly access: readonly Access[];
    readonly toolName: string;
    readonly limit: number;
    readonly exclusive: boolean;
  },
): RequestKeys {
  const list = [
    keys.seq,
    keys.fence,
    keys.requests,
    keys.leases,
    keys.queue,
    keys.holders,
    keys.exclusive,
    keys.toolHolders,
    keys.keyBlocked,
    `${keys.prefix}tool-waiting:${request.toolName}`,
  ];
  const positions = new Map<string, number>();
  const at = (name: string): number => {
    let position = positions.get(name);
    if (position === undefined) {
      list.push(name);
      position = list.length;
      positions.set(name, position);
    }
    return position;
  };
  const announced = request.exclusive
    ? '*'
    : JSON.stringify(request.access.map((a) => [a.mode === 'read' ? 'r' : 'w', a.key]));
  const group = `${keys.prefix}group:${createHash('sha1')
    .update(`${request.toolName}\n${request.limit}\n${announced}`)
    .digest('hex')}`;
  list.push(group);
  const entered = new Set<number>();
  const conflicting = new Set<number>();
  if (!request.exclusive) {
    for (const { key, mode } of request.access) {
      const m = mode === 'read' ? 'r' : 'w';
      const ancestors = ancestorsOf(key);
      entered.add(at(`${keys.prefix}at:${m}:${key}`));
      for (const above of [...ancestors, key]) entered.add(at(`${keys.prefix}under:${m}:${above}`));
      const against = mode === 'read' ? ['w'] : ['r', 'w'];
      for (const other of against) {
        for (const above of ancestors) conflicting.add(at(`${keys.prefix}at:${other}:${above}`));
        conflicting.add(at(`${keys.prefix}under:${other}:${key}`));
      }
    }
  }
  return {
    keys: list,
    entered: [...entered],
    conflicting: [...conflicting],
    announced,
    group,
  };
}

/**
 * The keys that overlap `key` from above (`keysOverlap`'s ancestors): every prefix cut just
 * before a `/`, and just after one when something follows it. `fs:/a/b` → `fs:`, `fs:/`,
 * `fs:/a`, `fs:/a/`.
 */
export function ancestorsOf(key: string): string[] {
  const found: string[] = [];
  for (let i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1)) {
    found.push(key.slice(0, i));
    if (i + 1 < key.length) found.push(key.slice(0, i + 1));
  }
  return [...new Set(found)];
}
