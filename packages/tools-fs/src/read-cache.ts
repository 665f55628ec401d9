import { keysOverlap } from '@toolwaves/core';
import { checkOptions, optionRules } from '@toolwaves/core/internal';
import { invalidOptions } from './fs-tools-error.js';

/** Options of {@link ReadCache}. */
export interface ReadCacheOptions {
  /** When `false` the cache stores nothing and every read loads. */
  readonly enabled: boolean;
  /** Most entries kept; the least recently used goes first. */
  readonly maxEntries: number;
}

/** Counters of a {@link ReadCache}. */
export interface ReadCacheStats {
  /** Reads answered from the cache. */
  readonly hits: number;
  /** Reads that loaded (only counted while the cache is enabled). */
  readonly misses: number;
  /** Entries held now. */
  readonly entries: number;
}

/** One read, as {@link ReadCache.read} takes it. */
export interface CachedRead {
  /** The access key the read covers, e.g. `fs:/work/a.ts`. */
  readonly key: string;
  /** What else the answer depends on (line offset and limit); part of the entry's identity. */
  readonly variant: string;
  /** Produces the answer; a rejection is passed on and nothing is stored. */
  readonly load: () => Promise<string>;
}

interface Entry {
  readonly key: string;
  readonly value: string;
}

/**
 * Memoizes successful reads by access key and invalidates them hierarchically: a write on a key
 * drops every entry whose key overlaps it (the file, the folders above it, everything below it).
 *
 * An epoch guard keeps a read from inserting stale content: every invalidation bumps the epoch
 * and, while reads are in flight, is logged; a read remembers the epoch it started at and only
 * stores its answer when no overlapping invalidation happened since. So a read that started
 * before a write in the same wave may answer with what it read, but never caches it.
 *
 * A stored value is the answer's content only (never a call id): a hit answers another call
 * with the same content, under that call's own id.
 *
 * @example
 * ```ts
 * const cache = new ReadCache({ enabled: true, maxEntries: 100 });
 * await cache.read({ key: 'fs:/w/a.ts', variant: '1:2000', load: () => readIt() }); // miss
 * await cache.read({ key: 'fs:/w/a.ts', variant: '1:2000', load: () => readIt() }); // hit
 * cache.invalidate(['fs:/w']); // a write in /w: the entry is gone
 * ```
 */
export class ReadCache {
  readonly #options: ReadCacheOptions;
  readonly #entries = new Map<string, Entry>();
  /** Invalidations since the oldest read in flight started, in epoch order. */
  #log: { readonly epoch: number; readonly key: string }[] = [];
  /** Reads in flight, by the epoch they started at. */
  readonly #inFlight = new Map<number, number>();
  #epoch = 0;
  #hits = 0;
  #misses = 0;

  constructor(options: ReadCacheOptions) {
    checkOptions({
      subject: 'ReadCache',
      options,
      rules: { enabled: optionRules.boolean, maxEntries: optionRules.integerFrom(1) },
      required: ['enabled', 'maxEntries'],
      error: invalidOptions,
    });
    this.#options = options;
  }

  /** Whether reads are stored at all. */
  get enabled(): boolean {
    return this.#options.enabled;
  }

  /** Hits, misses and entries held. */
  get stats(): ReadCacheStats {
    return { hits: this.#hits, misses: this.#misses, entries: this.#entries.size };
  }

  /** The cached answer to the read, or what its `load` answers (stored unless a write overlapped). */
  async read(read: CachedRead): Promise<string> {
    if (!this.#options.enabled) return read.load();
    const id = `${read.key}\0${read.variant}`;
    const hit = this.#entries.get(id);
    if (hit !== undefined) {
      this.#hits += 1;
      this.#entries.delete(id);
      this.#entries.set(id, hit);
      return hit.value;
    }
    this.#misses += 1;
    const started = this.#epoch;
    this.#inFlight.set(started, (this.#inFlight.get(started) ?? 0) + 1);
    try {
      const value = await read.load();
      if (!this.#invalidatedSince(started, read.key)) this.#store(id, { key: read.key, value });
      return value;
    } finally {
      this.#settle(started);
    }
  }

  /** Drops every entry overlapping one of the keys, and marks them changed for reads in flight. */
  invalidate(keys: readonly string[]): void {
    for (const key of keys) {
      this.#epoch += 1;
      if (this.#inFlight.size > 0) this.#log.push({ epoch: this.#epoch, key });
      for (const [id, entry] of this.#entries) {
        if (keysOverlap(entry.key, key)) this.#entries.delete(id);
      }
    }
  }

  /** Drops every entry (counters stay). */
  clear(): void {
    this.#entries.clear();
  }

  #invalidatedSince(epoch: number, key: string): boolean {
    return this.#log.some((change) => change.epoch > epoch && keysOverlap(change.key, key));
  }

  #store(id: string, entry: Entry): void {
    this.#entries.delete(id);
    this.#entries.set(id, entry);
    while (this.#entries.size > this.#options.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
  }

  /** A read that started at `epoch` is done: forget invalidations no read in flight can see. */
  #settle(epoch: number): void {
    const count = (this.#inFlight.get(epoch) ?? 1) - 1;
    if (count === 0) this.#inFlight.delete(epoch);
    else this.#inFlight.set(epoch, count);
    if (this.#inFlight.size === 0) {
      this.#log = [];
      return;
    }
    const oldest = Math.min(...this.#inFlight.keys());
    const keep = this.#log.findIndex((change) => change.epoch > oldest);
    this.#log = keep === -1 ? [] : this.#log.slice(keep);
  }
}
