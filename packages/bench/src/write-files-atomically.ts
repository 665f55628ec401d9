import { randomUUID } from 'node:crypto';
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
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
 * Writes several files so that a failure leaves none half-written and the set as it was:
 * every content goes to a temporary file in the same folder first; only when all are written
 * are they renamed over their targets (a rename within a folder is atomic), the old files kept
 * aside until every rename has succeeded and put back if one fails. A target that exists but is
 * not a regular file is refused before anything is written.
 *
 * @throws {BenchError} `write_failed` naming the file, with the cause; `invalid_options` for a
 * name with a folder in it.
 * @example
 * await writeFilesAtomically({ dir: 'bench-results', files: { 'report.md': markdown, 'report.json': json } });
 */
export async function writeFilesAtomically(options: WriteFilesAtomicallyOptions): Promise<void> {
  const { dir } = options;
  const names = Object.keys(options.files);
  for (const name of names) {
    if (name.length === 0 || /[/\\]/.test(name) || name === '.' || name === '..') {
      throw new BenchError({
        code: 'invalid_options',
        message: `Expected file names without folders, got \`${name}\``,
      });
    }
  }
  const fail = (name: string, cause: unknown): BenchError =>
    new BenchError({
      code: 'write_failed',
      message: `Could not write \`${name}\` in \`${dir}\`: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    });
  await mkdir(dir, { recursive: true });
  const existing = new Set<string>();
  for (const name of names) {
    const kind = await lstat(join(dir, name)).catch(() => undefined);
    if (kind === undefined) continue;
    if (!kind.isFile()) throw fail(name, new Error('something other than a file is in the way'));
    existing.add(name);
  }
  const stamp = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const temporary = (name: string): string => join(dir, `.${name}.${stamp}.tmp`);
  const aside = (name: string): string => join(dir, `.${name}.${stamp}.old`);
  let current = '';
  try {
    for (const name of names) {
      current = name;
      await writeFile(temporary(name), options.files[name]!);
    }
  } catch (error) {
    await Promise.all(names.map((name) => rm(temporary(name), { force: true })));
    throw fail(current, error);
  }
  const replaced: string[] = [];
  try {
    for (const name of names) {
      current = name;
      if (existing.has(name)) await rename(join(dir, name), aside(name));
      replaced.push(name);
      await rename(temporary(name), join(dir, name));
    }
  } catch (error) {
    for (const name of replaced) {
      if (existing.has(name)) await rename(aside(name), join(dir, name)).catch(() => undefined);
      else if (name !== current) await rm(join(dir, name), { force: true });
    }
    await Promise.all(names.map((name) => rm(temporary(name), { force: true })));
    throw fail(current, error);
  }
  await Promise.all([...existing].map((name) => rm(aside(name), { force: true })));
}
