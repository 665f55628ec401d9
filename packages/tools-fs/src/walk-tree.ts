import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** One entry met by {@link walkTree}. */
export interface TreeEntry {
  /** Absolute path (canonical when the walk's base is: links are never followed). */
  readonly absolute: string;
  /** Path relative to the walk's base, `/`-separated. */
  readonly relative: string;
  readonly kind: 'file' | 'directory' | 'symlink' | 'other';
}

/** Options of {@link walkTree}. */
export interface WalkTreeOptions {
  /** Canonical absolute path of the folder to walk. */
  readonly base: string;
  /** Whether to walk into a folder, given its path relative to `base`. */
  readonly descend: (relative: string) => boolean;
  /** Checked before each folder is read; the walk stops by throwing its reason. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Walks a folder depth-first and yields every entry below it (not the base itself). Symbolic
 * links are yielded as links and never followed, so a walk that starts inside the workspace
 * stays inside it. A folder below the base that cannot be read is skipped; the base itself
 * must be readable (its error is thrown).
 */
export async function* walkTree(options: WalkTreeOptions): AsyncGenerator<TreeEntry> {
  const pending: { absolute: string; relative: string }[] = [
    { absolute: options.base, relative: '' },
  ];
  while (pending.length > 0) {
    const folder = pending.pop() as { absolute: string; relative: string };
    options.signal?.throwIfAborted();
    let entries: Dirent[];
    try {
      entries = await readdir(folder.absolute, { withFileTypes: true });
    } catch (error) {
      if (folder.relative === '') throw error;
      continue;
    }
    for (const entry of entries) {
      const absolute = join(folder.absolute, entry.name);
      const relative = folder.relative === '' ? entry.name : `${folder.relative}/${entry.name}`;
      const kind = entry.isSymbolicLink()
        ? 'symlink'
        : entry.isDirectory()
          ? 'directory'
          : entry.isFile()
            ? 'file'
            : 'other';
      yield { absolute, relative, kind };
      if (kind === 'directory' && options.descend(relative)) pending.push({ absolute, relative });
    }
  }
}
