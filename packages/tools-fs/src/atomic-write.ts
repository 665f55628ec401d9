import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { checkOptions, optionRules } from '@toolwaves/core/internal';
import { invalidOptions } from './fs-tools-error.js';

/** Options of {@link atomicWrite} and {@link draftFile}. */
export interface AtomicWriteOptions {
  /** Absolute path of the file to create or replace. */
  readonly target: string;
  readonly content: string;
  /** Permission bits of the new file; default `0o666` less the umask. */
  readonly mode?: number | undefined;
}

/** A new version of a file written beside it, not yet in place: see {@link draftFile}. */
export interface DraftFile {
  /** Renames the draft over the target, in one step. */
  commit(): Promise<void>;
  /** Removes the draft (a no-op after `commit`). */
  discard(): Promise<void>;
}

/**
 * Writes a file's new content to a temporary file in the same folder (created exclusively,
 * never through a link, flushed to disk), to be put in place later with one `rename`
 * (`commit`) or dropped (`discard`). Between the two, the target is untouched.
 *
 * @example
 * ```ts
 * const draft = await draftFile({ target: '/work/a.ts', content: 'export {};\n' });
 * try { await fence.commit(write, () => draft.commit()); } finally { await draft.discard(); }
 * ```
 */
export async function draftFile(options: AtomicWriteOptions): Promise<DraftFile> {
  checkOptions({
    subject: 'draftFile',
    options,
    rules: {
      target: optionRules.nonEmptyString,
      content: optionRules.string,
      mode: optionRules.integerFrom(0),
    },
    required: ['target', 'content'],
    error: invalidOptions,
  });
  const { target, content, mode } = options;
  const name = `.${basename(target).slice(0, 40)}.${randomBytes(6).toString('hex')}.tmp`;
  const temporary = join(dirname(target), name);
  const handle = await open(temporary, 'wx', 0o666);
  let renamed = false;
  try {
    try {
      await handle.writeFile(content, 'utf8');
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return {
    async commit() {
      await rename(temporary, target);
      renamed = true;
    },
    async discard() {
      if (!renamed) await rm(temporary, { force: true });
    },
  };
}

/**
 * Writes a file so that no reader ever sees it half-written: a {@link draftFile} renamed over
 * the target at once. On any failure the temporary file is removed and the target is untouched.
 *
 * @example
 * ```ts
 * await atomicWrite({ target: '/work/a.ts', content: 'export {};\n' });
 * ```
 */
export async function atomicWrite(options: AtomicWriteOptions): Promise<void> {
  const draft = await draftFile(options);
  try {
    await draft.commit();
  } finally {
    await draft.discard();
  }
}
