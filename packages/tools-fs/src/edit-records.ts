import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWrite } from './atomic-write.js';
import { fenceError } from './fence-errors.js';
import { FenceFolder } from './fence-folder.js';
import type { HostFence } from './host-fence.js';

/** What an `edit_file` run saw and was about to write, for a later run of the same call. */
export interface EditRecord {
  /** SHA-256 (hex) of the file as the run read it. */
  readonly before: string;
  /** SHA-256 (hex) of the file the run was about to put in place. */
  readonly after: string;
}

/** How long a record is kept: well past any retry of a durable turn worth waiting for. */
const KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/** SHA-256 of a text, hex. */
export function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The records `edit_file` keeps for calls that carry `ToolContext.idempotencyKey` (the calls of a
 * durable turn): one small file per call and path, named by a hash of the two, in the folder
 * `edits/` of the host fence (checked like the fence's own folders: this user's alone). A record
 * is written inside the commit step, right before the edited file is renamed into place, so
 * finding none means no run of the call ever changed the file. A re-run compares the file with
 * it: holding `after`, the edit is already applied; holding `before`, the first run did not get
 * to rename; anything else, someone changed the file since the first run read it.
 *
 * Records older than 7 days are removed, once per process, when the first one is written.
 *
 * @example
 * ```ts
 * const records = new EditRecords({ fence });
 * await records.write({ idempotencyKey, key: file.key }, { before: textHash(text), after: textHash(edited) });
 * const seen = await records.read({ idempotencyKey, key: file.key }); // on a re-run
 * ```
 */
export class EditRecords {
  readonly #folder: FenceFolder;
  #swept = false;

  constructor(options: { readonly fence: Pick<HostFence, 'dir' | 'tempDir'> }) {
    const { dir, tempDir } = options.fence;
    // checked like the fence's own folder, and that folder with it, on every use
    this.#folder = new FenceFolder({ dir: join(dir, 'edits'), tempDir });
  }

  /** The record of the call `idempotencyKey` for the file `key`, if a run wrote one. */
  async read(at: RecordAt): Promise<EditRecord | undefined> {
    this.#folder.check();
    const path = this.#folder.path(nameOf(at));
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw fenceError({ error, path, doing: 'read an edit record' });
    }
    let parsed: Partial<EditRecord> | undefined;
    try {
      parsed = JSON.parse(text) as Partial<EditRecord>;
    } catch {
      parsed = undefined;
    }
    if (typeof parsed?.before !== 'string' || typeof parsed.after !== 'string') {
      // a damaged record can tell nothing: fail closed rather than guess the edit was applied
      throw fenceError({
        error: new Error('a damaged edit record'),
        path,
        doing: 'read an edit record',
      });
    }
    return { before: parsed.before, after: parsed.after };
  }

  /** Writes (or replaces) the record, atomically and flushed to disk. */
  async write(at: RecordAt, record: EditRecord): Promise<void> {
    this.#folder.check();
    const path = this.#folder.path(nameOf(at));
    try {
      await atomicWrite({ target: path, content: JSON.stringify(record) });
    } catch (error) {
      throw fenceError({ error, path, doing: 'write an edit record' });
    }
    if (!this.#swept) {
      this.#swept = true;
      await this.#sweep().catch(() => undefined);
    }
  }

  async #sweep(): Promise<void> {
    const now = Date.now();
    for (const name of await readdir(this.#folder.dir)) {
      const path = this.#folder.path(name);
      const info = await stat(path).catch(() => undefined);
      if (info !== undefined && now - info.mtimeMs > KEEP_MS) await rm(path, { force: true });
    }
  }
}

/** Where a record belongs: the call (its idempotency key) and the file (its canonical key). */
export interface RecordAt {
  readonly idempotencyKey: string;
  readonly key: string;
}

function nameOf(at: RecordAt): string {
  return createHash('sha256').update(`${at.idempotencyKey}\0${at.key}`, 'utf8').digest('hex');
}
