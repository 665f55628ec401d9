import { lstat, mkdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { draftFile } from '@toolwaves/tools-fs';
import { BenchError } from '../bench-error.js';

/** Writes a file via a draft beside it renamed over it (tools-fs `draftFile`): never half-written. */
export async function writeFileAtomically(options: { path: string; content: string }) {
  const { path, content } = options;
  try {
    await mkdir(dirname(path), { recursive: true });
    if ((await lstat(path).catch(() => undefined))?.isFile() === false) {
      throw new Error('something other than a file is in the way');
    }
    const draft = await draftFile({ target: path, content });
    await draft.commit().finally(() => draft.discard());
  } catch (cause) {
    throw new BenchError({
      code: 'write_failed',
      message: `Could not write \`${basename(path)}\` in \`${dirname(path)}\`: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    });
  }
}
