import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { keysOverlap } from '@toolwaves/core';
import { FsToolsError } from './fs-tools-error.js';

/** Entries kept before the oldest half is folded into the floor. */
const MAX_ENTRIES = 1024;

/** A newer token that refuses a write: where it was seen, and its value. */
export interface NewerToken {
  readonly key: string;
  readonly token: number;
}

/**
 * The highest fencing token recorded per key on this host, in one JSON file, read and written
 * only under the {@link HostCommitLock}. When it grows past 1 024 keys, the half recorded longest
 * ago is dropped and its highest token becomes the `floor`: a token below the floor is refused
 * for every key (a call granted before all of those writes is refused, never let through).
 */
export class FenceStore {
  readonly file: string;
  #floor = 0;
  readonly #entries = new Map<string, { token: number; at: number }>();
  #changed = false;

  private constructor(file: string) {
    this.file = file;
  }

  /** Reads the store (empty when the file does not exist yet). */
  static async load(file: string): Promise<FenceStore> {
    const store = new FenceStore(file);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return store;
      throw error;
    }
    try {
      const saved = JSON.parse(text) as { floor: number; entries: [string, number, number][] };
      store.#floor = saved.floor;
      for (const [key, token, at] of saved.entries) store.#entries.set(key, { token, at });
    } catch (cause) {
      throw new FsToolsError({
        code: 'io_error',
        message: `the fence store ${file} is not valid JSON: nothing was written (remove the file only when no fleet call is running)`,
        cause,
      });
    }
    return store;
  }

  /** A token above `token` recorded for a key overlapping one of `keys` (or the floor), if any. */
  newerThan(keys: readonly string[], token: number): NewerToken | undefined {
    if (token < this.#floor)
      return { key: '(any key: older entries were folded)', token: this.#floor };
    for (const [seen, entry] of this.#entries) {
      if (entry.token > token && keys.some((key) => keysOverlap(key, seen))) {
        return { key: seen, token: entry.token };
      }
    }
    return undefined;
  }

  /** Records `token` for each key (keeping a higher one already there). */
  record(keys: readonly string[], token: number, now: number): void {
    for (const key of keys) {
      const entry = this.#entries.get(key);
      if (entry !== undefined && entry.token >= token) continue;
      this.#entries.set(key, { token, at: now });
      this.#changed = true;
    }
    if (this.#entries.size > MAX_ENTRIES) this.#fold();
  }

  /** Writes the store back if `record` changed it (a new file renamed over the old one). */
  async save(): Promise<void> {
    if (!this.#changed) return;
    const entries = [...this.#entries].map(([key, { token, at }]) => [key, token, at]);
    const draft = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(draft, JSON.stringify({ floor: this.#floor, entries }), { mode: 0o600 });
      await rename(draft, this.file);
    } finally {
      await rm(draft, { force: true });
    }
    this.#changed = false;
  }

  #fold(): void {
    const oldest = [...this.#entries].sort((a, b) => a[1].at - b[1].at);
    for (const [key, { token }] of oldest.slice(0, oldest.length - MAX_ENTRIES / 2)) {
      this.#floor = Math.max(this.#floor, token);
      this.#entries.delete(key);
    }
  }
}
