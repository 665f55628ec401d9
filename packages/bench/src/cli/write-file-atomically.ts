import { randomUUID } from 'node:crypto';
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BenchError } from '../bench-error.js';

/** Options of {@link writeFileAtomically}. */
export interface WriteFileAtomicallyOptions {
  /** The file to write; its folder is created if missing. */
  readonly path: string;
  readonly content: string;
}

/**
 * Writes one file so that it is never half-written: the content goes to a temporary file in
 * the same folder, which is then renamed over the target (a rename within a folder is
 * atomic). On failure the temporary file is removed and the old file stays as it was. Reports
 * are regenerable, so each file is written on its own: there is no rollback across files.
 *
 * @throws {BenchError} `write_failed` naming the file, with the cause (also when something
 * other than a regular file is in the way).
 * @example
 * await writeFileAtomically({ path: 'bench-results/report.md', content: markdown });
 */
export async function writeFileAtomically(options: WriteFileAtomicallyOptions): Promise<void> {
  const { path, content } = options;
  const dir = dirname(path);
  const fail = (cause: unknown): BenchError =>
    new BenchError({
      code: 'write_failed',
      message: `Could not write \`${basename(path)}\` in \`${dir}\`: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    });
  await mkdir(dir, { recursive: true });
  const existing = await lstat(path).catch(() => undefined);
  if (existing !== undefined && !existing.isFile()) {
    throw fail(new Error('something other than a file is in the way'));
  }
  const temporary = join(dir, `.${basename(path)}.${process.pid}-${randomUUID().slice(0, 8)}.tmp`);
  try {
    await writeFile(temporary, content);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw fail(error);
  }
}
