import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { FsToolsError } from './fs-tools-error.js';

/** Symbolic links followed before giving up, as the kernel does (`ELOOP`). */
const MAX_LINKS = 40;

/**
 * The canonical form of an absolute path: normalized, with every symbolic link resolved for the
 * part that exists (the real path of the longest existing prefix, then the rest as written).
 * A link whose target does not exist (yet) is followed too, so a write through it is checked
 * against where it would land. Synchronous on purpose: declarations call it while planning.
 *
 * @throws FsToolsError `invalid_path` after {@link MAX_LINKS} links (a loop).
 * @example
 * ```ts
 * // with /w/link -> /w/src
 * canonicalPath('/w/./link/../src/a.ts'); // '/w/src/a.ts' (`..` is resolved lexically first)
 * canonicalPath('/w/link/new.ts');        // '/w/src/new.ts'
 * ```
 */
export function canonicalPath(path: string): string {
  let current = resolve(path);
  for (let links = 0; links <= MAX_LINKS; links += 1) {
    const { real, rest } = longestRealPrefix(current);
    const [first, ...others] = rest;
    if (first === undefined) return real;
    const target = linkTarget(join(real, first));
    if (target === undefined) return join(real, ...rest);
    current = resolve(real, target, ...others);
  }
  throw new FsToolsError({
    code: 'invalid_path',
    message: `too many levels of symbolic links (more than ${MAX_LINKS})`,
  });
}

/** The real path of the longest prefix of `path` that resolves, and the names after it. */
function longestRealPrefix(path: string): { real: string; rest: string[] } {
  const rest: string[] = [];
  let prefix = path;
  for (;;) {
    try {
      return { real: realpathSync.native(prefix), rest: rest.reverse() };
    } catch {
      const parent = dirname(prefix);
      if (parent === prefix) return { real: prefix, rest: rest.reverse() };
      rest.push(basename(prefix));
      prefix = parent;
    }
  }
}

/** The target of `path` when it is a symbolic link (dangling or looping), else `undefined`. */
function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}
