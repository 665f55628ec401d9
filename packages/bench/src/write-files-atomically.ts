import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BenchError } from './bench-error.js';

/** Options of {@link writeFilesAtomically}. */
export interface WriteFilesAtomicallyOptions {
  /** The folder to write into (created if missing). */
  readonly dir: string;
  /** File name (no folders) → content. */
  readonly files: Readonly<Record<string, string>>;
}

/**
 * Writes several files so that a failure leaves none half-written: every content goes to a
 * temporary file in the same folder first; only when all are written are they renamed over
 * their targets (a rename within a folder is atomic). On failure the temporary files are
 * removed and the targets are left as they were.
 *
 * @throws {BenchError} `write_failed` naming the file, with the cause; `invalid_options` for a
 * name with a folder in it.
 * @example
 * await writeFilesAtomically({ dir: 'bench-results', files: { 'report.md': markdown, 'report.json': json } });
 */
export async function writeFilesAtomically(options: WriteFilesAtomicallyOptions): Promise<void> {
  const names = Object.keys(options.files);
  for (const name of names) {
    if (name.length === 0 || /[/\\]/.test(name) || name === '.' || name === '..') {
      throw new BenchError({
        code: 'invalid_options',
        message: `Expected file names without folders, got \`${name}\``,
      });
    }
  }
  await mkdir(options.dir, { recursive: true });
  const stamp = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const temporary = names.map((name) => join(options.dir, `.${name}.${stamp}.tmp`));
  let current = '';
  try {
    for (const [position, name] of names.entries()) {
      current = name;
      await writeFile(temporary[position]!, options.files[name]!);
    }
    for (const [position, name] of names.entries()) {
      current = name;
      await rename(temporary[position]!, join(options.dir, name));
    }
  } catch (error) {
    await Promise.all(temporary.map((path) => rm(path, { force: true })));
    throw new BenchError({
      code: 'write_failed',
      message: `Could not write \`${current}\` in \`${options.dir}\`: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
}
