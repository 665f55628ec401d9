import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { asciiJson } from './ascii-json.js';
import { fenceError } from './fence-errors.js';
import { type NewerToken, TokenIndex } from './token-index.js';
import { openRecordFile, parseRecordLine } from './token-record-file.js';

/** Keys kept in memory before the oldest are folded into their parents. */
const MAX_KEYS = 8192;
/** Size past which the record file is rewritten with one line per key. */
const COMPACT_BYTES = 1024 * 1024;

/** One buffer for every read of the records (reads are synchronous: never two at once). */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/**
 * The highest fencing token recorded per key on this host: an append-only file of small records
 * (`t <token> <key as JSON>`; `f <token>` for the floor; `a <beacon>` when a process began to
 * use the fence), read incrementally into a
 * {@link TokenIndex} and appended to with one `write` per change, so a write costs no rewrite of
 * the whole store. Read and appended only under the commit step of the keys concerned; a record
 * is one `O_APPEND` write, so appends of unrelated keys from other processes never interleave.
 *
 * When the file grows past 1 MiB, {@link FenceStore.compact} (under the step of every key)
 * writes the index as a new file, renames it into place, and ends the old one with `m`
 * ("moved"): a process reading the old file reopens the new one when it meets that line.
 */
export class FenceStore {
  readonly file: string;
  #fd: number | undefined;
  #offset = 0;
  #partial = '';
  /**
   * `performance.now()` right before the last look that found every record of the file in the
   * index (a read to its end, or an `fstat` showing nothing else appended).
   */
  #readTick = Number.NEGATIVE_INFINITY;
  readonly #maxKeys: number;
  readonly #compactBytes: number;
  #index: TokenIndex;
  /** Arrival records (`a <beacon>`) read so far, over every file this store has read. */
  #arrivals = 0;

  constructor(options: {
    readonly file: string;
    /** Keys kept in memory before the oldest are folded; default 8 192. */
    readonly maxKeys?: number;
    /** Size past which the file wants compacting; default 1 MiB. */
    readonly compactBytes?: number;
  }) {
    this.file = options.file;
    this.#maxKeys = options.maxKeys ?? MAX_KEYS;
    this.#compactBytes = options.compactBytes ?? COMPACT_BYTES;
    this.#index = new TokenIndex({ maxKeys: this.#maxKeys });
  }

  /**
   * When (`performance.now()`) the index last held every record of the file: what another
   * process appended after it may not be read yet.
   */
  get readTick(): number {
    return this.#readTick;
  }

  /** Arrival records (`a <beacon>`) read so far: see `ArrivalRecords` (`listSlots`). */
  get arrivals(): number {
    return this.#arrivals;
  }

  /**
   * Records that the process of `beacon` has made its slot in the fence's folder: one append,
   * which every process makes right after making its slot, before anything else. Until the
   * records are read again the index is not known to be current (the line is not taken in).
   */
  arrive(beacon: string): void {
    this.#readTick = Number.NEGATIVE_INFINITY;
    for (;;) {
      const fd = this.#open();
      let linked: boolean;
      try {
        writeSync(fd, `a ${beacon}\n`);
        linked = fstatSync(fd).nlink > 0;
      } catch (error) {
        throw fenceError({ error, path: this.file, doing: 'append an arrival record to' });
      }
      if (linked) return;
      // appended to a file a compaction had just replaced: made again in the new one
      this.#reopen();
    }
  }

  /** Whether every record was read, as of now: one `fstat` (nothing appended, not replaced). */
  current(): boolean {
    const tick = performance.now();
    let info: { readonly nlink: number; readonly size: number };
    try {
      info = fstatSync(this.#open());
    } catch (error) {
      throw fenceError({ error, path: this.file, doing: 'read the token records of' });
    }
    if (info.nlink === 0 || this.#partial !== '' || info.size !== this.#offset) return false;
    this.#readTick = tick;
    return true;
  }

  /** Whether the file has grown enough to be compacted. */
  get wantsCompaction(): boolean {
    return this.#offset > this.#compactBytes;
  }

  /** Reads what other processes appended since the last look. */
  refresh(): void {
    let fd = this.#open();
    const buffer = READ_BUFFER;
    const tick = performance.now();
    for (;;) {
      let read: number;
      try {
        read = readSync(fd, buffer, 0, buffer.length, this.#offset);
      } catch (error) {
        throw fenceError({ error, path: this.file, doing: 'read the token records of' });
      }
      if (read === 0) {
        this.#readTick = tick;
        return;
      }
      this.#offset += read;
      if (this.#apply(this.#partial + buffer.toString('utf8', 0, read))) {
        // the file was compacted: read the new one from its start
        this.#reopen();
        fd = this.#open();
      } else if (read < buffer.length) {
        // a short read of a regular file ends at its end: nothing more to read right now
        this.#readTick = tick;
        return;
      }
    }
  }

  /** A token above `token` recorded for a key overlapping one of `keys`, if any. */
  newerThan(keys: readonly string[], token: number): NewerToken | undefined {
    return this.#index.newerThan(keys, token);
  }

  /**
   * Records `token` for each key that has no higher one: one append, nothing when covered (see
   * {@link FenceStore.append} and {@link FenceStore.settle}, with no knowledge of the other
   * processes). Answers whether the index is now current.
   */
  record(keys: readonly string[], token: number): boolean {
    return this.settle({ keys, token, appended: this.append(keys, token), alone: false });
  }

  /**
   * Appends `token` for each key that has no higher one (one `write`; nothing when all are
   * covered) and answers the lines appended, for {@link FenceStore.settle}.
   */
  append(keys: readonly string[], token: number): string {
    let lines = '';
    for (const key of keys) {
      if (!this.#index.covers(key, token)) lines += `t ${token} ${asciiJson(key)}\n`;
    }
    if (lines === '') return lines;
    const fd = this.#open();
    try {
      // written as it is (no Buffer made for it): keys are written as ASCII JSON, one byte a
      // character, so the lines' length is their size
      writeSync(fd, lines);
    } catch (error) {
      throw fenceError({ error, path: this.file, doing: 'append a token record to' });
    }
    return lines;
  }

  /**
   * Takes in what {@link FenceStore.append} just appended, and answers whether the index is now
   * current: `true` when nothing but these lines was appended since the last read (no
   * {@link FenceStore.refresh} needed), `false` when that is not known (something else was
   * appended, or there was nothing to append).
   *
   * `alone`: the caller knows that no other process (and no other store of this file in this
   * process) can have appended to or compacted the file since {@link FenceStore.readTick}: the
   * lines are taken as read with no system call. Otherwise one `fstat` tells: a claim records
   * without holding a commit step, so a compaction may replace the file at the same moment, and
   * an append that landed in the replaced file (its link count is 0) is made again in the new
   * one.
   */
  settle(options: {
    readonly keys: readonly string[];
    readonly token: number;
    readonly appended: string;
    readonly alone: boolean;
  }): boolean {
    const { keys, token, appended, alone } = options;
    if (appended === '') return alone && this.#partial === '';
    if (alone && this.#partial === '') {
      this.#offset += appended.length;
      for (const key of keys) this.#index.raise(key, token);
      return true;
    }
    const tick = performance.now();
    let info: { readonly nlink: number; readonly size: number };
    try {
      info = fstatSync(this.#open());
    } catch (error) {
      throw fenceError({ error, path: this.file, doing: 'append a token record to' });
    }
    if (info.nlink === 0) {
      this.#reopen();
      this.refresh();
      return this.record(keys, token);
    }
    for (const key of keys) this.#index.raise(key, token);
    // Nothing but these lines was added since the last read: skip them instead of reading them
    // back. Otherwise the next refresh reads them with the rest (raising again is harmless).
    if (this.#partial === '' && info.size === this.#offset + appended.length) {
      this.#offset = info.size;
      this.#readTick = tick;
      return true;
    }
    return false;
  }

  /**
   * Rewrites the file as one line per key (after folding). Call only while holding the commit
   * step of every key, after {@link FenceStore.refresh}. Records that claims append to the old
   * file meanwhile are carried over to the new one.
   */
  compact(): void {
    const old = this.#open();
    const lines = [`f ${this.#index.floor}\n`];
    for (const [key, token] of this.#index.entries()) {
      lines.push(`t ${token} ${asciiJson(key)}\n`);
    }
    const draft = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      writeFileSync(draft, lines.join(''), { mode: 0o600, flag: 'wx' });
      renameSync(draft, this.file);
      writeSync(old, 'm\n');
      const late = this.#lateLines(old);
      if (late !== '') writeFileSync(this.file, late, { flag: 'a' });
    } catch (error) {
      rmSync(draft, { force: true });
      throw fenceError({ error, path: this.file, doing: 'compact the token records of' });
    }
    this.refresh();
  }

  /** The complete lines appended to `fd` after the last read, up to the `m` this process wrote. */
  #lateLines(fd: number): string {
    const chunks: Buffer[] = [];
    const buffer = READ_BUFFER;
    for (let at = this.#offset; ; ) {
      const read = readSync(fd, buffer, 0, buffer.length, at);
      if (read === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, read)));
      at += read;
    }
    const text = this.#partial + Buffer.concat(chunks).toString('utf8');
    const moved = text.split('\n').indexOf('m');
    return moved <= 0 ? '' : `${text.split('\n').slice(0, moved).join('\n')}\n`;
  }

  /** Applies the complete lines of `text`; true when it met `m` (the file was replaced). */
  #apply(text: string): boolean {
    const end = text.lastIndexOf('\n');
    this.#partial = text.slice(end + 1);
    if (end < 0) return false;
    for (const line of text.slice(0, end).split('\n')) {
      const record = parseRecordLine(this.file, line);
      if (record.kind === 'moved') return true;
      if (record.kind === 'arrival') this.#arrivals += 1;
      else if (record.kind === 'floor') this.#index.raiseFloor(record.token);
      else this.#index.raise(record.key, record.token);
    }
    return false;
  }

  #open(): number {
    this.#fd ??= openRecordFile(this.file);
    return this.#fd;
  }

  #reopen(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    this.#offset = 0;
    this.#partial = '';
    this.#index = new TokenIndex({ maxKeys: this.#maxKeys });
  }
}
