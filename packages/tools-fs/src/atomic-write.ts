import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Options of {@link atomicWrite}. */
export interface AtomicWriteOptions {
  /** Absolute path of the file to create or replace. */
  readonly target: string;
  readonly content: string;
  /** Permission bits of the new file; default `0o666` less the umask. */
  readonly mode?: number | undefined;
}

/**
 * Writes a file so that no reader ever sees it half-written: the content goes to a new
 * temporary file in the same folder (created exclusively, never through a link), is flushed to
 * disk, and the temporary file is renamed over the target in one step. On any failure the
 * temporary file is removed and the target is untouched.
 *
 * @example
 * ```ts
 * await atomicWrite({ target: '/work/a.ts', content: 'export {};\n' });
 * ```
 */
export async function atomicWrite(options: AtomicWriteOptions): Promise<void> {
  const { target, content, mode } = options;
  const name = `.${basename(target).slice(0, 40)}.${randomBytes(6).toString('hex')}.tmp`;
  const temporary = join(dirname(target), name);
  let created = false;
  let renamed = false;
  try {
    const handle = await open(temporary, 'wx', 0o666);
    created = true;
    try {
      await handle.writeFile(content, 'utf8');
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
    renamed = true;
  } finally {
    if (created && !renamed) await rm(temporary, { force: true });
  }
}
