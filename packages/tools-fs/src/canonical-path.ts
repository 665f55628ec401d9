import { resolveLinks, SYMBOLIC_LINK_LIMIT } from '@toolwaves/core/node';
import { FsToolsError } from './fs-tools-error.js';

/**
 * The canonical form of an absolute path: normalized, with every symbolic link resolved for the
 * part that exists (the real path of the longest existing prefix, then the rest as written).
 * A link whose target does not exist (yet) is followed too, so a write through it is checked
 * against where it would land. Synchronous on purpose: declarations call it while planning.
 *
 * @throws FsToolsError `invalid_path` after {@link SYMBOLIC_LINK_LIMIT} links (a loop).
 * @example
 * ```ts
 * // with /w/link -> /w/src
 * canonicalPath('/w/./link/../src/a.ts'); // '/w/src/a.ts' (`..` is resolved lexically first)
 * canonicalPath('/w/link/new.ts');        // '/w/src/new.ts'
 * ```
 * @see resolveLinks (`@toolwaves/core/node`), which it throws for where that gives up
 */
export function canonicalPath(path: string): string {
  const canonical = resolveLinks(path);
  if (canonical !== undefined) return canonical;
  throw new FsToolsError({
    code: 'invalid_path',
    message: `too many levels of symbolic links (more than ${SYMBOLIC_LINK_LIMIT})`,
  });
}
