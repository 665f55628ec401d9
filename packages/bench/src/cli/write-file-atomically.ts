import { randomUUID } from 'node:crypto';
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BenchError } from '../bench-error.js';

/** Writes a file via a temporary file renamed over it: never half-written. */
export async function writeFileAtomically(options: {
  path: string;
  content: string;
}): Promise<void> {
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
