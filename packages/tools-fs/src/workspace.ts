import { realpathSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { canonicalPath } from './canonical-path.js';
import { fsKey } from './fs-key.js';
import { FsToolsError } from './fs-tools-error.js';
import type { FsToolsSettings } from './fs-tools-options.js';

/** A path checked to be inside the workspace. */
export interface ResolvedPath {
  /** Canonical absolute path (see `canonicalPath`): what the tools read and write. */
  readonly absolute: string;
  /** The path relative to the root, `/`-separated; `.` for the root itself. */
  readonly display: string;
  /** The access key of the path, `fs:<absolute>` (see `fsKey`). */
  readonly key: string;
}

/**
 * The answer of {@link Workspace.keyOf}: the canonical key of a path, or why it has none.
 */
export type PathKey =
  | { readonly key: string; readonly reason?: undefined }
  | { readonly key: undefined; readonly reason: string };

/**
 * The sandbox every filesystem tool works through: it holds the (canonical) root and the limits,
 * and turns the paths a model writes into canonical paths inside the root, refusing the rest.
 * `fsToolsModule` binds it under its own class (inject it with `@inject(Workspace)`) and under
 * `FS_WORKSPACE`.
 *
 * @example
 * ```ts
 * const workspace = new Workspace(parseFsToolsOptions({ root: '/work' }));
 * workspace.resolve('src/../a.ts'); // { absolute: '/work/a.ts', display: 'a.ts', key: 'fs:/work/a.ts' }
 * workspace.resolve('../etc/passwd'); // throws FsToolsError `path_escape`
 * ```
 * @see canonicalPath
 */
export class Workspace {
  /** The root with its symbolic links resolved. */
  readonly root: string;
  readonly settings: FsToolsSettings;

  constructor(settings: FsToolsSettings) {
    this.settings = settings;
    this.root = realpathSync.native(settings.root);
  }

  /**
   * Resolves a path given by the model (relative to the root, or absolute inside it) to its
   * canonical form. Call it again at execution time: the filesystem may have changed since the
   * call was planned.
   *
   * @param options.field - the input field the path came from, for the error message
   * (default `path`).
   * @throws FsToolsError `invalid_path` for an empty path, a NUL byte or a link loop;
   * `path_escape` when the canonical path is outside the root.
   */
  resolve(path: string, options: { readonly field?: string } = {}): ResolvedPath {
    const field = options.field ?? 'path';
    if (typeof path !== 'string' || path === '') {
      throw new FsToolsError({
        code: 'invalid_path',
        message: `invalid path: \`${field}\` is empty`,
      });
    }
    if (path.includes('\0')) {
      throw new FsToolsError({
        code: 'invalid_path',
        message: `invalid path: \`${field}\` ${JSON.stringify(path)} holds a NUL byte`,
      });
    }
    let canonical: string;
    try {
      canonical = canonicalPath(resolve(this.root, path));
    } catch (error) {
      if (!(error instanceof FsToolsError)) throw error;
      throw new FsToolsError({
        code: error.code,
        message: `invalid path: \`${field}\` ${JSON.stringify(path)}: ${error.message}`,
        cause: error,
      });
    }
    if (!this.contains(canonical)) {
      throw new FsToolsError({
        code: 'path_escape',
        message: `path escapes the workspace: \`${field}\` ${JSON.stringify(path)} resolves outside ${this.root}`,
      });
    }
    return this.at(canonical);
  }

  /**
   * The canonical access key of a path as the filesystem tools declare it (`fs:` and the
   * canonical absolute path), for a tool of your own that touches the same files. Never throws:
   * a path that is empty, holds a NUL, loops or escapes the root gives `key: undefined` and the
   * reason (declare such a call not concurrency-safe, so it runs alone).
   *
   * @example
   * ```ts
   * workspace.keyOf('src/../a.ts'); // { key: 'fs:/work/a.ts' }
   * workspace.keyOf('../x');        // { key: undefined, reason: 'path escapes the workspace: ...' }
   * ```
   */
  keyOf(path: string): PathKey {
    try {
      return { key: this.resolve(path).key };
    } catch (error) {
      return { key: undefined, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  /** The {@link ResolvedPath} of a canonical path already known to be inside the root. */
  at(canonical: string): ResolvedPath {
    const display = relative(this.root, canonical).split(sep).join('/');
    return { absolute: canonical, display: display === '' ? '.' : display, key: fsKey(canonical) };
  }

  /** Whether a canonical absolute path is the root or below it. */
  contains(canonical: string): boolean {
    if (canonical === this.root) return true;
    const prefix = this.root.endsWith(sep) ? this.root : this.root + sep;
    return canonical.startsWith(prefix);
  }
}
