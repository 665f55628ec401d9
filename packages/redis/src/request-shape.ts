import { createHash } from 'node:crypto';
import type { Access } from '@toolwaves/core';
import type { FleetKeys } from './fleet-keys.js';
import { type FleetScripts, scriptCommand } from './fleet-scripts.js';

/**
 * Everything about a request that depends only on its tool and accesses, made once and reused
 * by every call of the same tool on the same accesses: the three commands with their KEYS and
 * ARGV in place (a call copies one and sets its id and record flag), its group and how its
 * departure is announced.
 */
export interface RequestShape {
  readonly toolName: string;
  readonly access: readonly Access[];
  /** The fleet cap of the tool, 0 for none. */
  readonly limit: number;
  readonly exclusive: boolean;
  /** Its group (same tool, accesses, limit, exclusivity): a hand-off stays inside it. */
  readonly group: string;
  /** What the lease covers, for messages. */
  readonly describe: string;
  readonly enqueue: readonly string[];
  readonly retry: readonly string[];
  readonly release: readonly string[];
  /**
   * Whether it may go through GRANT-AT-ONCE and RELEASE-AT-ONCE (not exclusive, no limit, and
   * few enough accesses for one script call to unpack them).
   */
  readonly batchable: boolean;
  /**
   * What those scripts take for it after its id: its accesses packed as `<mode><key>` joined by
   * NUL (`scripts/includes/at-once.lua` makes the rest from the keys).
   */
  readonly packed: string;
}

/** Where a request's id (ARGV[1]) and record flag (ARGV[2]) sit in its commands. */
export const ID_AT = 3 + 12;
export const RECORD_FLAG_AT = ID_AT + 1;

/**
 * Makes a request's shape: for each access to `K` (unless the request is exclusive), the
 * presence members of `K` and of every ancestor of `K` (one ZMSCORE finds what overlaps from
 * above), and the lex bounds of what lies below `K`. Ancestors follow the planner's
 * `keysOverlap`: `fs:/a` and `fs:/` are ancestors of `fs:/a/b`.
 */
export function requestShape(options: {
  keys: FleetKeys;
  scripts: FleetScripts;
  toolName: string;
  access: readonly Access[];
  limit: number;
  exclusive: boolean;
  /** This coordinator's own channel, where hand-offs to its waiters are told. */
  ownChannel: string;
  leaseMs: number;
}): RequestShape {
  const { keys, toolName, limit, exclusive } = options;
  const access = exclusive ? [] : options.access;
  const pairs = JSON.stringify(access.map((a) => [a.mode === 'read' ? 'r' : 'w', a.key]));
  const group = `${keys.prefix}group:${createHash('sha1')
    .update(`${toolName}\n${limit}\n${exclusive ? '*' : pairs}`)
    .digest('hex')}`;
  const announced = exclusive ? '*' : `${pairs}\n${toolName}\n${group}`;
  const members = new Set<string>(['*']);
  const modesAndKeys: string[] = [];
  const bounds: string[] = [];
  for (const { key, mode } of access) {
    modesAndKeys.push(mode === 'read' ? 'r' : 'w', key);
    for (const above of ancestorsOf(key)) members.add(`=${above}`);
    members.add(`=${key}`);
    bounds.push(...belowBounds(key));
  }
  const memberList = exclusive ? [] : [...members];
  const names = [
    keys.seq,
    keys.fence,
    keys.requests,
    keys.leases,
    keys.queue,
    keys.exclusive,
    keys.toolHolders,
    keys.keyBlocked,
    keys.present,
    keys.entries,
    `${keys.prefix}tool-waiting:${toolName}`,
    group,
  ];
  const block = [
    String(access.length),
    String(memberList.length),
    ...modesAndKeys,
    ...bounds,
    ...memberList,
  ];
  const args = [
    '', // ARGV[1] the request id, set per call
    'r', // ARGV[2] the record flag, set per call
    toolName,
    String(limit),
    exclusive ? '1' : '0',
    String(options.leaseMs),
    keys.released,
    options.ownChannel,
    announced,
    ...block,
  ];
  const { scripts } = options;
  return {
    toolName,
    access,
    limit,
    exclusive,
    group,
    describe: describeAccess(exclusive, access),
    enqueue: scriptCommand(scripts.enqueue, names, args),
    retry: scriptCommand(scripts.retry, names, args),
    release: scriptCommand(scripts.release, names, args),
    batchable: !exclusive && limit === 0 && access.length <= 250 && memberList.length <= 500,
    packed: access.map((a) => `${a.mode === 'read' ? 'r' : 'w'}${a.key}`).join('\u0000'),
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

/**
 * The lex range `[first, last)` holding exactly the keys below `key` (and their entries, which
 * start with their key and NUL): after `key/` when it does not end with `/` (`fs:/a` → `fs:/a/`
 * up to `fs:/a0`, `0` being the byte after `/`), else anything longer that starts with it.
 */
function belowBounds(key: string): [string, string] {
  if (key.endsWith('/')) return [`${key}\u0001`, `${key.slice(0, -1)}0`];
  return [`${key}/`, `${key}0`];
}

function describeAccess(exclusive: boolean, access: readonly Access[]): string {
  if (exclusive) return 'the whole namespace (exclusive)';
  const shown = access.map((a) => `${a.mode} ${a.key}`);
  return shown.length === 0 ? 'no keys' : shown.join(', ');
}

/**
 * The shapes a coordinator has made, by tool, exclusivity and accesses. Bounded: past
 * `SHAPES_KEPT` it starts over (the tools of a fleet make a few hundred at most; inputs that
 * name ever new keys must not grow it without end).
 */
export class RequestShapes {
  readonly #made = new Map<string, RequestShape>();
  readonly #make: (request: {
    toolName: string;
    access: readonly Access[];
    exclusive: boolean;
  }) => RequestShape;

  constructor(
    make: (request: {
      toolName: string;
      access: readonly Access[];
      exclusive: boolean;
    }) => RequestShape,
  ) {
    this.#make = make;
  }

  /** The shape of a request, made on first use. */
  of(request: { toolName: string; access: readonly Access[]; exclusive: boolean }): RequestShape {
    let id = request.exclusive ? `*\u0000${request.toolName}` : `\u0000${request.toolName}`;
    for (const { key, mode } of request.access) id += `\u0000${mode === 'read' ? 'r' : 'w'}${key}`;
    let shape = this.#made.get(id);
    if (shape === undefined) {
      if (this.#made.size >= SHAPES_KEPT) this.#made.clear();
      shape = this.#make(request);
      this.#made.set(id, shape);
    }
    return shape;
  }
}

const SHAPES_KEPT = 4096;
