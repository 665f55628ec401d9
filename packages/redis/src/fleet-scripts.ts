import { type LuaScript, loadLuaScript } from './lua-script.js';

/** What ENQUEUE and RETRY answer. */
export type TryReply =
  /** Granted; its lease started when the command was sent. */
  | { readonly kind: 'granted'; readonly token: number }
  /** It waits with `ticket`; `redisNow` is Redis's clock (ms) when the script ran. */
  | { readonly kind: 'waiting'; readonly ticket: number; readonly redisNow: number }
  /** Its waiting entry expired (RETRY only): it must queue again. */
  | { readonly kind: 'expired' };

/**
 * One of the coordinator's scripts, with how to read its reply. Its KEYS and ARGV are described
 * in the header of its `.lua` file (and, for the request scripts, `scripts/includes/request.lua`).
 */
export interface FleetScript<Reply> {
  readonly lua: LuaScript;
  /** Reads the raw reply (what node-redis gives for the script's return value). */
  read(raw: unknown): Reply;
}

/** The coordinator's scripts, read from their files on first use. */
export interface FleetScripts {
  /** Grants a request at once, or queues it. */
  readonly enqueue: FleetScript<TryReply>;
  /** Tries a waiting request again. */
  readonly retry: FleetScript<TryReply>;
  /** Takes a request out and hands its keys on; answers how many waiters it granted. */
  readonly release: FleetScript<number>;
  /** Extends a granted lease: 1, or 0 when it is lost. */
  readonly renew: FleetScript<number>;
  /**
   * Takes out the releases gathered with it, then grants several uncontended requests at once:
   * the releases RELEASE must still hand on, and per request its token, or 0 (it must ENQUEUE).
   */
  readonly grantAtOnce: FleetScript<AtOnceReply>;
  /** Takes several requests granted at once out: the positions (1-based) RELEASE must still hand on. */
  readonly releaseAtOnce: FleetScript<number[]>;
}

/** What GRANT-AT-ONCE answers. */
export interface AtOnceReply {
  /** The positions (1-based) of the releases whose departure RELEASE must still hand on. */
  readonly followUp: readonly number[];
  /** Per request to grant, its fencing token, or 0: not granted (it must ENQUEUE). */
  readonly tokens: readonly number[];
}

function readAtOnce(raw: unknown): AtOnceReply {
  if (!Array.isArray(raw) || raw.length !== 2) {
    throw new Error(`Unexpected reply from a fleet script: ${JSON.stringify(raw)}`);
  }
  return { followUp: readNumbers(raw[0]), tokens: readNumbers(raw[1]) };
}

function readTry(raw: unknown): TryReply {
  if (Array.isArray(raw))
    return { kind: 'waiting', ticket: Number(raw[0]), redisNow: Number(raw[1]) };
  const token = Number(raw);
  if (token > 0) return { kind: 'granted', token };
  if (token === -1) return { kind: 'expired' };
  throw new Error(`Unexpected reply from a fleet script: ${JSON.stringify(raw)}`);
}

function readNumbers(raw: unknown): number[] {
  if (!Array.isArray(raw))
    throw new Error(`Unexpected reply from a fleet script: ${JSON.stringify(raw)}`);
  return raw.map(Number);
}

let loaded: FleetScripts | undefined;

/** The scripts (`scripts/*.lua`), loaded once per process. Redis 6.2 or later (ZMSCORE, SET GET). */
export function fleetScripts(): FleetScripts {
  loaded ??= {
    enqueue: { lua: loadLuaScript('enqueue-12.lua'), read: readTry },
    retry: { lua: loadLuaScript('retry-12.lua'), read: readTry },
    release: { lua: loadLuaScript('release-12.lua'), read: Number },
    renew: { lua: loadLuaScript('renew-1.lua'), read: Number },
    grantAtOnce: { lua: loadLuaScript('grant-at-once-6.lua'), read: readAtOnce },
    releaseAtOnce: { lua: loadLuaScript('release-at-once-5.lua'), read: readNumbers },
  };
  return loaded;
}

/**
 * A script's command, `EVALSHA <sha> <number of keys> ...keys ...args`, ready to send (a
 * request's commands are made once per tool and accesses, then copied with the request's id).
 */
export function scriptCommand(
  script: FleetScript<unknown>,
  keys: readonly string[],
  args: readonly string[] = [],
): string[] {
  if (keys.length !== script.lua.numberOfKeys) {
    throw new Error(`${script.lua.name} takes ${script.lua.numberOfKeys} keys, got ${keys.length}`);
  }
  return ['EVALSHA', script.lua.sha, String(keys.length), ...keys, ...args];
}
