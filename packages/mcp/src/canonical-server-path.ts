import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** Symbolic links followed before giving up, as the kernel does (`ELOOP`). */
const MAX_LINKS = 40;

/**
 * The canonical form of an absolute path on this machine, the way a filesystem server reaches
 * it: normalized (`.`, `..`, `//`), with every symbolic link resolved for the part that exists
 * (the real path of the longest existing prefix, then the rest as written), and a dangling link
 * followed to where it points. `undefined` for a loop of links. Synchronous: declarations call
 * it while planning.
 *
 * @example
 * ```ts
 * // with /srv/link.txt -> /srv/a.txt
 * canonicalServerPath('/srv/x/../link.txt'); // '/srv/a.txt'
 * canonicalServerPath('/srv/new/file.txt');  // '/srv/new/file.txt' (does not exist yet)
 * ```
 */
export function canonicalServerPath(absolute: string): string | undefined {
  let current = resolve(absolute);
  for (let links = 0; links <= MAX_LINKS; links += 1) {
    const { real, rest } = longestRealPrefix(current);
    const [first, ...others] = rest;
    if (first === undefined) return real;
    const target = linkTarget(join(real, first));
    if (target === undefined) return join(real, ...rest);
    current = resolve(real, target, ...others);
  }
  return undefined;
}

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

function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}
