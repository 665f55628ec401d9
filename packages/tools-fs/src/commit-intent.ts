import { randomBytes } from 'node:crypto';
import { renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { fenceError } from './fence-errors.js';
import type { FenceFolder } from './fence-folder.js';
import { currentProcess } from './process-identity.js';

/** The key that overlaps every key: what a whole-fence step (compacting the records) holds. */
export const EVERY_KEY = '\0every key';

/** Longest path a Unix socket can be bound at (`sun_path` is 108 bytes on Linux, with its NUL). */
const MAX_SOCKET_PATH = 107;

let sequence = 0;

/** What a commit intent says about itself, in `<id>.keys` (written before its socket appears). */
export interface IntentRecord {
  readonly pid: number;
  readonly pidNamespace: string;
  readonly keys: readonly string[];
}

/**
 * One process's intent to run a commit on some keys, in the fence's `commits/` folder: a file
 * `<id>.keys` naming the keys and the process, and, while it claims its turn, a Unix socket
 * `<id>.sock` it listens on. The socket is how the others tell that it lives: a connection to a
 * listening socket succeeds even when its process is stopped (the kernel queues it), is refused
 * once the process died, and is closed when the intent gives its turn back, which wakes the
 * waiters without polling. Ids sort by creation time, so older intents go first; an id is never
 * used by another intent, so a dead one may be removed by anyone.
 */
export class CommitIntent {
  /** Sorts by creation time (then process and sequence): the older intent has priority. */
  readonly id: string;
  readonly keys: readonly string[];
  readonly #folder: FenceFolder;
  readonly #keysFile: string;
  readonly #socketPath: string;
  #server: Server | undefined;
  readonly #connections = new Set<Socket>();

  private constructor(folder: FenceFolder, keys: readonly string[]) {
    sequence += 1;
    const time = Date.now().toString(36).padStart(9, '0');
    const pid = process.pid.toString(36);
    this.id = `${time}-${pid}-${sequence.toString(36)}-${randomBytes(3).toString('hex')}`;
    this.keys = keys;
    this.#folder = folder;
    this.#keysFile = folder.path(`${this.id}.keys`);
    this.#socketPath = folder.path(`${this.id}.sock`);
  }

  /** Writes the intent's `.keys` file; its socket is made by {@link CommitIntent.claim}. */
  static create(folder: FenceFolder, keys: readonly string[]): CommitIntent {
    const intent = new CommitIntent(folder, keys);
    const { pid, pidNamespace } = currentProcess();
    const record: IntentRecord = { pid, pidNamespace, keys };
    try {
      writeFileSync(intent.#keysFile, JSON.stringify(record), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      throw fenceError({ error, path: intent.#keysFile, doing: 'write a commit intent to' });
    }
    return intent;
  }

  /** Whether a socket of this folder can be bound at all (path length), checked before use. */
  static checkSocketPath(folder: FenceFolder): void {
    const longest = folder.path(`${'x'.repeat(9)}-${'x'.repeat(6)}-${'x'.repeat(8)}-xxxxxx.sock`);
    if (Buffer.byteLength(longest) > MAX_SOCKET_PATH) {
      throw fenceError({
        error: Object.assign(new Error('ENAMETOOLONG'), { code: 'ENAMETOOLONG' }),
        path: folder.dir,
        doing: `bind its Unix sockets (paths of at most ${MAX_SOCKET_PATH} bytes) in`,
      });
    }
  }

  /** Whether its socket is listening (it claims its turn). */
  get claiming(): boolean {
    return this.#server !== undefined;
  }

  /**
   * Starts listening: on a name the others do not look at, then renamed to `<id>.sock`, so a
   * socket the others see is always one they can connect to while this process lives.
   */
  async claim(): Promise<void> {
    if (this.#server !== undefined) return;
    const draft = this.#folder.path(`${this.id}.tmp`);
    const server = createServer((socket) => {
      // kept open (never read) until the turn is given back: its close wakes the waiter
      this.#connections.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => this.#connections.delete(socket));
    });
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
      renameSync(draft, this.#socketPath);
    } catch (error) {
      server.close();
      throw fenceError({ error, path: this.#socketPath, doing: 'publish a commit intent at' });
    }
    this.#server = server;
  }

  /**
   * Gives the turn back: the socket's name first (so nobody connects to a socket about to close),
   * then the socket, and every waiting connection with it.
   */
  yieldTurn(): void {
    const server = this.#server;
    if (server === undefined) return;
    this.#server = undefined;
    try {
      unlinkSync(this.#socketPath);
    } catch {
      // already removed: nothing else may take this name
    }
    server.close();
    for (const socket of this.#connections) socket.destroy();
    this.#connections.clear();
  }

  /** Ends the intent: gives the turn back and removes the `.keys` file. */
  end(): void {
    this.yieldTurn();
    try {
      unlinkSync(this.#keysFile);
    } catch {
      // a neighbour cleaning up after a crash removed it: nothing is left to undo
    }
  }
}
