import { randomBytes } from 'node:crypto';
import { renameSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { asciiJson } from './ascii-json.js';
import { fenceError } from './fence-errors.js';
import type { FenceFolder } from './fence-folder.js';
import { IntentSlot, type SlotIntent } from './intent-slot.js';
import { currentProcess } from './process-identity.js';

/** Longest path a Unix socket can be bound at (`sun_path` is 108 bytes on Linux, with its NUL). */
const MAX_SOCKET_PATH = 107;

const beacons = new Map<string, Promise<FenceBeacon>>();
/** The same beacons once published: a commit takes its own without awaiting a promise. */
const published = new Map<string, FenceBeacon>();

/**
 * The files of this process's beacons, removed by one `exit` listener for them all (a listener
 * per fence folder made Node warn of a leak past ten folders): a clean exit leaves nothing
 * behind; a killed process is cleaned up by the next waiter.
 */
const leftovers = new Set<string>();

function leaveOnExit(...paths: string[]): void {
  if (leftovers.size === 0) {
    process.once('exit', () => {
      for (const leftover of leftovers) {
        try {
          unlinkSync(leftover);
        } catch {
          // already gone
        }
      }
    });
  }
  for (const path of paths) leftovers.add(path);
}

/** What a waiter writes to be told when any intent of the process ends (its slot was unreadable). */
export const ANY_INTENT = '*';

/**
 * This process's presence in a fence folder: its {@link IntentSlot} (`b-<id>.slot`, the commit
 * intents claiming their turn) and a Unix socket (`b-<id>.sock`) listened on for as long as the
 * process lives: how the others tell that its intents are alive, and how they wait for one to
 * end. A connection to a listening socket succeeds even when the process is stopped (the
 * kernel queues it) and is refused once the process died, in every PID namespace that sees the
 * folder: the kernel's answer, not a pid's. A waiter writes the id of the intent it waits for;
 * the connection is closed when that intent ends (at once when it is not active here).
 */
export class FenceBeacon {
  /** Names the beacon in the intents' file names. */
  readonly id: string;
  /** The intents claiming their turn, by id, in the order they claimed it. */
  readonly active = new Map<string, readonly string[]>();
  /** The same intents as JSON, serialized once each. */
  readonly #json = new Map<string, string>();
  readonly #waiters = new Map<string, Set<Socket>>();
  readonly #slot: IntentSlot;
  /**
   * The slot on disk still shows an intent that has ended (see {@link FenceBeacon.deactivate}
   * with `lazily`): it is rewritten by the next change, in the event loop's next check phase,
   * or before this beacon answers anyone about an intent, whichever comes first.
   */
  #stale = false;
  #flushing = false;

  private constructor(id: string, slot: IntentSlot) {
    this.id = id;
    this.#slot = slot;
  }

  /** This process's beacon in `folder`, listening once published. */
  static of(folder: FenceFolder): Promise<FenceBeacon> {
    let beacon = beacons.get(folder.dir);
    if (beacon === undefined) {
      beacon = FenceBeacon.#publish(folder);
      beacons.set(folder.dir, beacon);
      beacon.catch(() => beacons.delete(folder.dir));
    }
    return beacon;
  }

  /** This process's beacon in `folder` if it is published already, else `undefined`. */
  static current(folder: FenceFolder): FenceBeacon | undefined {
    return published.get(folder.dir);
  }

  /** The socket path of the beacon `id` in `folder`. */
  static socketPath(folder: FenceFolder, id: string): string {
    return folder.path(`b-${id}.sock`);
  }

  /** Throws `fence_error` when the folder's path is too long for a Unix socket. */
  static checkPathLength(folder: FenceFolder): void {
    const longest = FenceBeacon.socketPath(folder, `${'x'.repeat(8)}-${'x'.repeat(8)}`);
    if (Buffer.byteLength(`${longest}.tmp`) > MAX_SOCKET_PATH) {
      throw fenceError({
        error: Object.assign(new Error('ENAMETOOLONG'), { code: 'ENAMETOOLONG' }),
        path: folder.dir,
        doing: `bind a Unix socket (a path of at most ${MAX_SOCKET_PATH} bytes) in`,
      });
    }
  }

  /** The slot file path of the beacon `id` in `folder`. */
  static slotPath(folder: FenceFolder, id: string): string {
    return folder.path(`b-${id}.slot`);
  }

  /** How many connections wait for an intent of this process to end. */
  get waiting(): number {
    let count = 0;
    for (const sockets of this.#waiters.values()) count += sockets.size;
    return count;
  }

  /** Publishes an intent of this process in its slot (written before this returns). */
  activate(intent: SlotIntent): void {
    this.active.set(intent.id, intent.keys);
    this.#json.set(intent.id, intentJson(intent));
    try {
      this.#writeSlot();
    } catch (error) {
      this.active.delete(intent.id);
      this.#json.delete(intent.id);
      throw error;
    }
  }

  /**
   * Ends an intent: it leaves the slot, then every connection waiting for it is closed.
   *
   * `lazily` (the caller saw no other process in the folder): when nobody waits for any intent
   * of this process, the slot is rewritten in the event loop's next check phase after the last
   * of its active intents ended (or by the next change before it) instead of now, so a commit
   * that ends makes no system call. Until then the
   * slot shows an intent that has ended: only a process that arrives meanwhile can read it, and
   * it then asks this beacon, which rewrites the slot before it answers "ended" (see `#answer`),
   * so that process waits for nothing and reads the slot as it is.
   */
  deactivate(intentId: string, options: { readonly lazily?: boolean } = {}): void {
    if (!this.active.delete(intentId)) return;
    this.#json.delete(intentId);
    if (options.lazily === true && this.#waiters.size === 0) {
      this.#stale = true;
      // Another intent of this process is still claiming its turn: the slot is rewritten when
      // the last one ends (or by the next change), one write for them all. The ended intent
      // stays in the slot a little longer, answered like any ended one.
      if (this.active.size > 0) return;
      if (!this.#flushing) {
        this.#flushing = true;
        setImmediate(() => {
          this.#flushing = false;
          // best effort here: a slot that cannot be written now is written by the next change
          // or the next question, which report the failure to their callers
          if (this.#stale) {
            try {
              this.#writeSlot();
            } catch {
              // left stale: the next write or answer tries again
            }
          }
        });
      }
      return;
    }
    try {
      this.#writeSlot();
    } finally {
      this.#wake(intentId);
    }
  }

  /** The slot as the intents are now: one `pwrite`. */
  #writeSlot(): void {
    this.#slot.write(this.#json.values());
    this.#stale = false;
  }

  /** Rewrites a stale slot before an answer: whether it could. */
  #flushBeforeAnswer(): boolean {
    try {
      this.#writeSlot();
      return true;
    } catch {
      return false;
    }
  }

  #wake(intentId: string): void {
    // nobody waits, the common case: nothing to look up
    if (this.#waiters.size === 0) return;
    for (const id of [intentId, ANY_INTENT]) {
      const waiting = this.#waiters.get(id);
      if (waiting === undefined) continue;
      this.#waiters.delete(id);
      for (const socket of waiting) socket.destroy();
    }
  }

  /**
   * Listens on a name nobody looks at, then renames it to `b-<id>.sock`: a beacon the others see
   * is always one they can connect to while this process lives.
   */
  static async #publish(folder: FenceFolder): Promise<FenceBeacon> {
    const id = `${process.pid.toString(36)}-${randomBytes(4).toString('hex')}`;
    // the slot first, empty: a slot with intents always has a listening socket beside it
    const slot = IntentSlot.create(FenceBeacon.slotPath(folder, id), currentProcess());
    const beacon = new FenceBeacon(id, slot);
    const path = FenceBeacon.socketPath(folder, id);
    const draft = `${path}.tmp`;
    const server: Server = createServer((socket) => beacon.#answer(socket));
    server.unref();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(draft, () => {
        server.off('error', reject);
        resolve();
      });
    }).catch((error: unknown) => {
      throw fenceError({ error, path: draft, doing: 'listen on a Unix socket at' });
    });
    try {
      renameSync(draft, path);
    } catch (error) {
      server.close();
      throw fenceError({ error, path, doing: 'publish its Unix socket at' });
    }
    leaveOnExit(slot.path, path);
    published.set(folder.dir, beacon);
    return beacon;
  }

  #answer(socket: Socket): void {
    socket.on('error', () => undefined);
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.lastIndexOf('\n');
      if (end < 0) return;
      for (const asked of text.slice(0, end).split('\n')) {
        let intentId = asked;
        const known = intentId === ANY_INTENT ? this.active.size > 0 : this.active.has(intentId);
        if (!known) {
          // The asker read an ended intent in the slot: the slot says so before the answer. A
          // slot that cannot be rewritten keeps the asker waiting, as for a live intent, until
          // a later change rewrites it (or its bound runs out): never an answer that sends it
          // back to the same stale slot again and again.
          if (!this.#stale || this.#flushBeforeAnswer()) {
            socket.destroy();
            return;
          }
          intentId = ANY_INTENT;
        }
        let waiting = this.#waiters.get(intentId);
        if (waiting === undefined) {
          waiting = new Set();
          this.#waiters.set(intentId, waiting);
        }
        waiting.add(socket);
        socket.once('close', () => waiting.delete(socket));
      }
      text = text.slice(end + 1);
    });
  }
}

/**
 * An intent as the slot holds it, in ASCII (`{"id":…,"keys":[…]}`): the id is ASCII already,
 * the keys are escaped, so the slot's length in characters is its size in bytes.
 */
function intentJson(intent: SlotIntent): string {
  let keys = '';
  for (const key of intent.keys) keys += keys === '' ? asciiJson(key) : `,${asciiJson(key)}`;
  return `{"id":"${intent.id}","keys":[${keys}]}`;
}
