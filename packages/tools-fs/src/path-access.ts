import type { Access } from '@toolwaves/core';
import type { Workspace } from './workspace.js';

/** One access of the richer model (`{ key, mode }`), as a tool's `access` returns it. */
export type FsAccess = Access;

/** A path a call touches, and how. */
export interface PathUse {
  readonly path: string;
  readonly mode: FsAccess['mode'];
}

/**
 * The accesses of a call that touches the given paths: one per path, on its canonical key; or
 * `undefined` when a path is invalid or escapes the workspace. Declarations use it so such a
 * call is planned as not concurrency-safe (it runs alone) and `execute` answers the error.
 * Never throws.
 *
 * @example
 * ```ts
 * pathAccess(workspace, [{ path: 'src/../a.ts', mode: 'read' }]); // [{ key: 'fs:/work/a.ts', mode: 'read' }]
 * pathAccess(workspace, [{ path: '../x', mode: 'write' }]);       // undefined
 * ```
 */
export function pathAccess(
  workspace: Workspace,
  uses: readonly PathUse[],
): readonly FsAccess[] | undefined {
  const accesses: FsAccess[] = [];
  for (const use of uses) {
    try {
      accesses.push({ key: workspace.resolve(use.path).key, mode: use.mode });
    } catch {
      return undefined;
    }
  }
  return accesses;
}
