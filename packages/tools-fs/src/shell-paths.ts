import { type Dirent, lstatSync, readdirSync, realpathSync } from 'node:fs';

/** Where a path of a command lands, or why that cannot be told or is not allowed. */
export type ShellPath = { readonly paths: readonly string[] } | { readonly reason: string };

const inside = (root: string, path: string) => path === root || path.startsWith(`${root}/`);

/**
 * Resolves `path`, as a command running in `cwd` names it, the way the kernel will: `..` after a
 * symbolic link goes up from the link's target, not from the text before it. The longest part
 * that exists is resolved with `realpath`; what does not exist yet is added as written (a `..`
 * there makes it unsure). The answer must be inside `root` (both real paths).
 *
 * @example
 * // with /w/link -> /w/src/deep
 * shellPath({ root: '/w', cwd: '/w', path: 'link/../x' }); // { paths: ['/w/src/x'] }
 */
export function shellPath(options: {
  readonly root: string;
  readonly cwd: string;
  readonly path: string;
}): ShellPath {
  const { root, cwd, path } = options;
  if (path === '') return { reason: 'an empty path' };
  const joined = path.startsWith('/') ? path : `${cwd}/${path}`;
  const parts = joined.split('/');
  for (let keep = parts.length; keep > 0; keep--) {
    let real: string;
    try {
      real = realpathSync.native(parts.slice(0, keep).join('/') || '/');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      return { reason: `${path}: ${code ?? String(error)}` };
    }
    const rest = parts.slice(keep).filter((part) => part !== '' && part !== '.');
    if (rest.includes('..'))
      return { reason: `${path} climbs (..) out of a path that does not exist` };
    const resolved = [real === '/' ? '' : real, ...rest].join('/') || '/';
    if (!inside(root, resolved)) return { reason: `${path} is outside the workspace` };
    return { paths: [resolved] };
  }
  return { reason: `${path} cannot be resolved` };
}

/**
 * What a pattern the shell expands (`src/*.ts`) reads: its folder, and the target of every
 * symbolic link in that folder (a match may be one, and the program then follows it). A pattern
 * may only be in the last part of the path, and every link there must stay inside `root`.
 */
export function shellPattern(options: {
  readonly root: string;
  readonly cwd: string;
  readonly pattern: string;
}): ShellPath {
  const { pattern } = options;
  const slash = pattern.lastIndexOf('/');
  const folder = slash < 0 ? '.' : pattern.slice(0, slash) || '/';
  if (/[*?[]/.test(folder)) return { reason: `${pattern}: a pattern in a folder's name` };
  const found = shellPath({ ...options, path: folder });
  if ('reason' in found) return found;
  const dir = found.paths[0]!;
  const paths = [dir];
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return { paths }; // nothing to match: the shell passes the pattern as it is
  }
  for (const entry of entries) {
    if (!entry.isSymbolicLink()) continue;
    let target: string;
    try {
      target = realpathSync.native(`${dir}/${entry.name}`);
    } catch {
      continue; // a dangling link reads nothing
    }
    if (!inside(options.root, target)) {
      return { reason: `${pattern} may match ${entry.name}, a link out of the workspace` };
    }
    paths.push(target);
  }
  return { paths };
}

/** Whether `path` is a directory (following links). */
export function isDirectory(path: string): boolean {
  try {
    return lstatSync(realpathSync.native(path)).isDirectory();
  } catch {
    return false;
  }
}
