import { type Stats, unlinkSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { keysOverlap } from '@toolwaves/core';
import { EVERY_KEY } from './commit-intent.js';
import { ANY_INTENT, FenceBeacon } from './fence-beacon.js';
import type { FenceFolder } from './fence-folder.js';
import { sweepIdleSlots } from './idle-slot-sweep.js';
import { readSlot, type SlotContent } from './intent-slot.js';
import { currentProcess, type ProcessIdentity } from './process-identity.js';
import { type ArrivalRecords, listSlots } from './slot-listing.js';

/** Reads of a slot caught mid-rewrite before it counts as overlapping every key (fail closed). */
const TORN_RETRIES = 20;

/** Another commit intent claiming its turn, as this process sees it. */
export interface Peer {
  readonly id: string;
  readonly beacon: string;
  /** `undefined` while its slot cannot be read whole: it overlaps every key then. */
  readonly holder: ProcessIdentity | undefined;
}

/** What a peer's beacon says about it. */
export type Probe =
  /** Its process lives (maybe stopped): the connection closes when the intent ends. */
  | { readonly state: 'live'; readonly socket: Socket }
  /** Its process lives, but its queue of connections is full (long stopped): look again later. */
  | { readonly state: 'busy' }
  /** Its process died: its slot and socket were removed. */
  | { readonly state: 'dead' };

/**
 * The intents of other processes' slots, and of this process's other intents, whose keys
 * overlap `keys` (an intent on {@link EVERY_KEY} overlaps all), oldest first.
 */
export function overlappingPeers(
  folder: FenceFolder,
  options: {
    readonly selfId: string | undefined;
    readonly own: FenceBeacon;
    readonly keys: readonly string[];
    /** An `lstat` of the folder taken just now, after this commit's intent or claim's record. */
    readonly looked?: Stats | undefined;
    /** The caller's token records, taken after its intent or record (see `listSlots`). */
    readonly records?: ArrivalRecords | undefined;
    /** `records` read live, after this commit's intent (see `listSlots`). */
    readonly recordsAfterWrite?: boolean | undefined;
  },
): Peer[] {
  const { own, keys, selfId } = options;
  const beacons = listSlots(folder, {
    looked: options.looked,
    records: options.records,
    recordsAfterWrite: options.recordsAfterWrite,
  });
  const others = beacons.length > 1 || (beacons.length === 1 && beacons[0] !== own.id);
  // the common case: this process alone in the folder, and no other intent of its own
  if (!others && own.active.size <= (selfId === undefined ? 0 : 1)) return [];
  const peers: Peer[] = [];
  for (const [id, ownKeys] of own.active) {
    if (id !== selfId && intentsOverlap(ownKeys, keys)) {
      peers.push({ id, beacon: own.id, holder: currentProcess() });
    }
  }
  // alone in the folder, with other intents of its own (writers of other files, most often)
  if (!others) return peers.length > 1 ? peers.sort(byAge) : peers;
  const idle: string[] = [];
  for (const beacon of beacons) {
    if (beacon === own.id) continue;
    const content = readWhole(FenceBeacon.slotPath(folder, beacon));
    if (content === 'empty') idle.push(beacon);
    if (content === 'empty' || content === 'gone') continue;
    if (content === 'torn') {
      // still being rewritten after many reads, or damaged: it overlaps every key (fail closed)
      peers.push({ id: '', beacon, holder: undefined });
      continue;
    }
    const holder = { pid: content.pid, pidNamespace: content.pidNamespace };
    for (const intent of content.intents) {
      if (intentsOverlap(intent.keys, keys)) peers.push({ id: intent.id, beacon, holder });
    }
  }
  sweepIdleSlots(folder, idle);
  return peers.sort(byAge);
}

/** Older intent first (ids sort by creation time). */
function byAge(a: Peer, b: Peer): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Whether two intents' keys overlap (the planner's rule; {@link EVERY_KEY} overlaps all). */
export function intentsOverlap(a: readonly string[], b: readonly string[]): boolean {
  if (a.includes(EVERY_KEY) || b.includes(EVERY_KEY)) return true;
  // loops rather than `some` with closures: asked for every other intent of the process, twice
  // per write, and most often answered "no"
  for (const x of a) {
    for (const y of b) if (keyPairOverlaps(x, y)) return true;
  }
  return false;
}

/**
 * `keysOverlap` (the planner's rule), with two answers it implies given first: a key overlaps
 * another only when one is a prefix of the other, so keys of one length overlap only when equal,
 * and a shorter key whose last character differs from the longer one's at that place is no
 * prefix of it. Keys of files side by side (`a-1.txt`, `a-2.txt`) are told apart without
 * comparing them twice from their start.
 */
function keyPairOverlaps(x: string, y: string): boolean {
  if (x.length === y.length) return x === y;
  const end = Math.min(x.length, y.length) - 1;
  if (end >= 0 && x.charCodeAt(end) !== y.charCodeAt(end)) return false;
  return keysOverlap(x, y);
}

/**
 * Asks a peer's beacon about it. A beacon that refuses the connection (or whose socket is gone)
 * belongs to a process that died: its intent is removed here (an id is never reused, so nothing
 * live can be behind that name).
 */
export function probe(folder: FenceFolder, peer: Peer): Promise<Probe> {
  return new Promise((resolve) => {
    const socket = connect(FenceBeacon.socketPath(folder, peer.beacon));
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      socket.on('error', () => undefined);
      socket.write(`${peer.id === '' ? ANY_INTENT : peer.id}\n`);
      resolve({ state: 'live', socket });
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.destroy();
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') {
        removeDead(folder, peer);
        resolve({ state: 'dead' });
      } else {
        // EAGAIN: its queue is full (stopped, and many have knocked); anything else: unsure,
        // so counted as alive (fail closed)
        resolve({ state: 'busy' });
      }
    });
  });
}

/**
 * Resolves when the live peer behind `socket` ends its intent or dies (the connection closes),
 * or with `timeout` / `aborted` first. Without a socket (busy), after `ms`. Closes the socket.
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

function readWhole(path: string): SlotContent | 'empty' | 'gone' | 'torn' {
  for (let attempt = 0; ; attempt += 1) {
    const content = readSlot(path);
    if (content !== 'torn' || attempt === TORN_RETRIES) return content;
  }
}

function removeDead(folder: FenceFolder, peer: Peer): void {
  const paths = [
    FenceBeacon.slotPath(folder, peer.beacon),
    FenceBeacon.socketPath(folder, peer.beacon),
  ];
  for (const path of paths) {
    try {
      unlinkSync(path);
    } catch {
      // another process cleaned it first
    }
  }
}
