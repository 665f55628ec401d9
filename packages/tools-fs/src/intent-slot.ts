import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { asciiJson } from './ascii-json.js';
import { fenceError } from './fence-errors.js';
import type { ProcessIdentity } from './process-identity.js';

/** One buffer for every read of a slot (reads are synchronous: never two at once). */
const READ_BUFFER = Buffer.allocUnsafe(16 * 1024);
/**
 * Room kept in front of the body for `<body length> <checksum>\n`: two numbers of at most ten
 * digits (the checksum keeps 30 bits), a space and a newline.
 */
const PREFIX_ROOM = 24;
const COMMA = 0x2c;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/** One commit intent as a slot lists it: its id (sorts by age) and the keys it commits. */
export interface SlotIntent {
  readonly id: string;
  readonly keys: readonly string[];
}

/** What a process's slot says: who wrote it, and its intents claiming their turn now. */
export interface SlotContent {
  readonly pid: number;
  readonly pidNamespace: string;
  readonly intents: readonly SlotIntent[];
}

/**
 * A process's slot file in a fence folder (`b-<beacon>.slot`): the commit intents of that
 * process claiming their turn, rewritten in place on every change with one `pwrite` at offset 0
 * (no file is created, removed or truncated per commit: each costs a journal entry on most
 * filesystems, a millisecond on a busy disk). The body is preceded by its length and an FNV-1a
 * checksum: what follows the body (an older, longer version) is ignored, and a reader that meets
 * a half-written slot reads it again.
 */
export class IntentSlot {
  readonly path: string;
  readonly #fd: number;
  /** The body up to the intents, and its checksum's state: the same on every write. */
  readonly #head: string;
  readonly #headHash: number;
  /** The whole slot with no intent (what an idle process shows), made once. */
  readonly #idle: Buffer;
  /**
   * Where the slot is put together before its `pwrite`: the head, made once, right after
   * `PREFIX_ROOM` bytes, the intents after it; the prefix goes right before the head. Bytes
   * rather than strings: the checksum is taken over bytes in one loop (over a string made by
   * joining, each character cost a lookup through its pieces) and nothing is converted twice.
   */
  #buffer: Buffer;

  private constructor(path: string, fd: number, owner: ProcessIdentity) {
    this.path = path;
    this.#fd = fd;
    this.#head = `{"pid":${owner.pid},"pidNamespace":${asciiJson(owner.pidNamespace)},"intents":[`;
    this.#headHash = fnv(FNV_START, this.#head);
    this.#idle = Buffer.from(this.#encode(''), 'latin1');
    this.#buffer = this.#withHead(4096);
  }

  /** Creates the slot file (mode 0600), empty: no intent. `owner` is the process writing it. */
  static create(path: string, owner: ProcessIdentity): IntentSlot {
    try {
      return new IntentSlot(path, openSync(path, 'wx+', 0o600), owner);
    } catch (error) {
      throw fenceError({ error, path, doing: 'create its slot file' });
    }
  }

  /**
   * Writes the process's intents now (all of them: the slot is rewritten whole), each as ASCII
   * JSON (non-ASCII characters escaped: one byte a character); none: the idle slot. The bytes
   * are those of `<body length> <checksum>\n<body>` with the intents joined by commas.
   */
  write(intents: Iterable<string>): void {
    const start = PREFIX_ROOM + this.#head.length;
    let at = start;
    for (const json of intents) {
      if (at + json.length + 3 > this.#buffer.length) this.#grow(at + json.length + 3);
      if (at !== start) this.#buffer[at++] = COMMA;
      at += this.#buffer.write(json, at, 'latin1');
    }
    try {
      if (at === start) {
        writeSync(this.#fd, this.#idle, 0, this.#idle.length, 0);
        return;
      }
      const buffer = this.#buffer;
      buffer[at++] = CLOSE_BRACKET;
      buffer[at++] = CLOSE_BRACE;
      // the body's checksum carried on from its head's, over the bytes after the head
      let hash = this.#headHash;
      for (let i = start; i < at; i += 1)
        hash = Math.imul(hash ^ (buffer[i] as number), FNV_PRIME) >>> 0;
      const prefix = `${at - PREFIX_ROOM} ${sumOf(hash)}\n`;
      const from = PREFIX_ROOM - prefix.length;
      buffer.write(prefix, from, 'latin1');
      writeSync(this.#fd, buffer, from, at - from, 0);
    } catch (error) {
      throw fenceError({ error, path: this.path, doing: 'write a commit intent to' });
    }
  }

  /** Closes the file (the process is ending). */
  close(): void {
    closeSync(this.#fd);
  }

  /** A buffer of `size` bytes or more, the head in place. */
  #withHead(size: number): Buffer {
    const buffer = Buffer.allocUnsafe(size);
    buffer.write(this.#head, PREFIX_ROOM, 'latin1');
    return buffer;
  }

  #grow(needed: number): void {
    const buffer = this.#withHead(Math.max(needed, this.#buffer.length * 2));
    this.#buffer.copy(buffer, 0, 0, this.#buffer.length);
    this.#buffer = buffer;
  }

  /**
   * `<body length> <checksum>\n<body>`, the body's checksum carried on from its head's. The body
   * is ASCII: its length is its size in bytes.
   */
  #encode(intents: string): string {
    const tail = `${intents}]}`;
    const body = this.#head + tail;
    return `${body.length} ${sumOf(fnv(this.#headHash, tail))}\n${body}`;
  }
}

/**
 * Reads a slot: its content, `empty` (no intent: a new or idle process), `gone` (removed since
 * the listing), or `torn` (being rewritten right now, or damaged: read it again).
 */
export function readSlot(path: string): SlotContent | 'empty' | 'gone' | 'torn' {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw fenceError({ error, path, doing: 'read a commit intent from' });
  }
  try {
    const chunks: Buffer[] = [];
    const buffer = READ_BUFFER;
    for (let at = 0; ; ) {
      const read = readSync(fd, buffer, 0, buffer.length, at);
      if (read === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, read)));
      at += read;
    }
    const bytes = Buffer.concat(chunks);
    if (bytes.length === 0) return 'empty';
    const newline = bytes.indexOf(10);
    const [length, sum] = bytes.toString('latin1', 0, Math.max(newline, 0)).split(' ');
    const end = newline + 1 + Number(length);
    if (newline < 0 || !Number.isSafeInteger(end) || end > bytes.length) return 'torn';
    const body = bytes.toString('utf8', newline + 1, end);
    if (sum !== checksum(body)) return 'torn';
    const content = JSON.parse(body) as SlotContent;
    return content.intents.length === 0 ? 'empty' : content;
  } catch (error) {
    if (error instanceof SyntaxError) return 'torn';
    throw fenceError({ error, path, doing: 'read a commit intent from' });
  } finally {
    closeSync(fd);
  }
}

/** FNV-1a of the UTF-16 code units, 30 bits of it: enough to tell a torn read from a whole one. */
function checksum(text: string): string {
  return sumOf(fnv(FNV_START, text));
}

/** A hash as the slot shows it: its low 30 bits in decimal (a small integer, quick to print). */
function sumOf(hash: number): string {
  return String(hash & 0x3fffffff);
}

const FNV_START = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a carried on from `hash` over `text` (a prefix's hash, then the rest: the whole's). */
function fnv(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME) >>> 0;
  }
  return h;
}
