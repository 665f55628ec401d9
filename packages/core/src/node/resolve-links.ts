import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** Symbolic links {@link resolveLinks} follows before giving up, as the kernel does (`ELOOP`). */
export const SYMBOLIC_LINK_LIMIT = 40;

/**
 * The canonical form of a path on this machine: made absolute and normalized (`.`, `..`, `//`;
 * `..` lexically, before any link), with every symbolic link resolved for the part that exists
 * (the real path of the longest existing prefix, then the rest as written). A link whose target
 * does not exist (yet) is followed too, so a write through it is keyed by where it would land.
 * `undefined` after {@link SYMBOLIC_LINK_LIMIT} links (a loop). Synchronous on purpose:
 * declarations call it while planning. Node only, hence `@toolwaves/core/node`.
 *
 * @example
 * ```ts
 * // with /w/link -> /w/src
 * resolveLinks('/w/./link/../src/a.ts'); // '/w/src/a.ts'
 * resolveLinks('/w/link/new.ts');        // '/w/src/new.ts' (does not exist yet)
 * resolveLinks('/w/loop');               // undefined when /w/loop -> /w/loop
 * ```
 * @see SYMBOLIC_LINK_LIMIT
 */
export function resolveLinks(path: string): string | undefined {
  let current = resolve(path);
  for (let links = 0; links <= SYMBOLIC_LINK_LIMIT; links += 1) {
    const { real, rest } = longestRealPrefix(current);
    const [first, ...others] = rest;
    if (first === undefined) return real;
    const target = linkTarget(join(real, first));
    if (target === undefined) return join(real, ...rest);
    current = resolve(real, target, ...others);
  }
  return undefined;
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
