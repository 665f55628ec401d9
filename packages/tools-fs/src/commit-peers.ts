import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { keysOverlap } from '@toolwaves/core';
import { EVERY_KEY, type IntentRecord } from './commit-intent.js';
import { fenceError } from './fence-errors.js';
import type { FenceFolder } from './fence-folder.js';
import type { ProcessIdentity } from './process-identity.js';

const SOCKET = /^([0-9a-z]+-[0-9a-z]+-[0-9a-z]+-[0-9a-f]+)\.sock$/;

/** Another commit intent claiming its turn, as this process sees it. */
export interface Peer {
  readonly id: string;
  /** `undefined` when its record cannot be read: it then overlaps every key (fail closed). */
  readonly keys: readonly string[] | undefined;
  readonly holder: ProcessIdentity | undefined;
  readonly socketPath: string;
}

/** What a connection to a peer's socket says about it. */
export type Probe =
  /** It lives (maybe stopped): the connection stays open until it gives its turn back. */
  | { readonly state: 'live'; readonly socket: Socket }
  /** It lives, but its queue of connections is full (a long-stopped holder): look again later. */
  | { readonly state: 'busy' }
  /** Its process died (refused): removed. */
  | { readonly state: 'dead' }
  /** It gave its turn back since the listing. */
  | { readonly state: 'gone' };

/** Records of intents already read, by id (a record never changes). */
const records = new Map<string, IntentRecord | undefined>();

/**
 * The other intents claiming their turn in the folder whose keys overlap `keys` (an intent on
 * {@link EVERY_KEY} overlaps all), oldest first.
 */
export function overlappingPeers(
  folder: FenceFolder,
  options: { readonly selfId: string; readonly keys: readonly string[] },
): Peer[] {
  let names: string[];
  try {
    names = readdirSync(folder.dir);
  } catch (error) {
    throw fenceError({ error, path: folder.dir, doing: 'list the commit intents in' });
  }
  const peers: Peer[] = [];
  for (const name of names.sort()) {
    const id = SOCKET.exec(name)?.[1];
    if (id === undefined || id === options.selfId) continue;
    const record = recordOf(folder, id);
    if (record !== undefined && !intentsOverlap(record.keys, options.keys)) continue;
    peers.push({
      id,
      keys: record?.keys,
      holder:
        record === undefined ? undefined : { pid: record.pid, pidNamespace: record.pidNamespace },
      socketPath: folder.path(name),
    });
  }
  return peers;
}

/** Whether two intents' keys overlap (the planner's rule; {@link EVERY_KEY} overlaps all). */
export function intentsOverlap(a: readonly string[], b: readonly string[]): boolean {
  if (a.includes(EVERY_KEY) || b.includes(EVERY_KEY)) return true;
  return a.some((x) => b.some((y) => keysOverlap(x, y)));
}

/**
 * Connects to a peer's socket. A dead peer (refused: its process exited, the kernel closed the
 * socket) is removed here: its id is never reused, so nothing live can be behind that name.
 */
export function probe(folder: FenceFolder, peer: Peer): Promise<Probe> {
  return new Promise((resolve) => {
    const socket = connect(peer.socketPath);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      socket.on('error', () => undefined);
      resolve({ state: 'live', socket });
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.destroy();
      if (error.code === 'ECONNREFUSED') {
        removeDead(folder, peer.id);
        resolve({ state: 'dead' });
      } else if (error.code === 'ENOENT') {
        resolve({ state: 'gone' });
      } else {
        // EAGAIN: its backlog is full (it is stopped and many have knocked); anything else:
        // unsure, so counted as alive (fail closed)
        resolve({ state: 'busy' });
      }
    });
  });
}

/**
 * Resolves when the live peer behind `socket` gives its turn back or dies (the connection
 * closes), or with `timeout` / `aborted` first. The socket is closed either way.
 */
export function waitForTurn(options: {
  readonly socket: Socket | undefined;
  readonly ms: number;
  readonly signal: AbortSignal | undefined;
}): Promise<'turn' | 'timeout' | 'aborted'> {
  const { socket, ms, signal } = options;
  return new Promise((resolve) => {
    const done = (why: 'turn' | 'timeout' | 'aborted') => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket?.destroy();
      resolve(why);
    };
    const onAbort = () => done('aborted');
    const timer = setTimeout(() => done(socket === undefined ? 'turn' : 'timeout'), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    socket?.once('close', () => done('turn'));
    socket?.resume();
  });
}

function recordOf(folder: FenceFolder, id: string): IntentRecord | undefined {
  if (records.has(id)) return records.get(id);
  let record: IntentRecord | undefined;
  try {
    const parsed = JSON.parse(readFileSync(folder.path(`${id}.keys`), 'utf8')) as IntentRecord;
    const valid =
      Number.isSafeInteger(parsed.pid) &&
      typeof parsed.pidNamespace === 'string' &&
      Array.isArray(parsed.keys) &&
      parsed.keys.every((key) => typeof key === 'string');
    record = valid ? parsed : undefined;
  } catch {
    record = undefined; // unreadable: it overlaps every key, and is not remembered
    return undefined;
  }
  if (records.size > 4096) records.clear();
  records.set(id, record);
  return record;
}

function removeDead(folder: FenceFolder, id: string): void {
  for (const name of [`${id}.sock`, `${id}.keys`]) {
    try {
      unlinkSync(folder.path(name));
    } catch {
      // another process cleaned it first
    }
  }
  records.delete(id);
}
