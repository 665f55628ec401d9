import { sep } from 'node:path';

/**
 * The access key of a canonical absolute path: `fs:` and the path with `/` separators, e.g.
 * `fs:/work/src/a.ts`. Keys are hierarchical, so the key of a folder overlaps the key of
 * everything below it (and a tool of your own can declare keys on the same paths).
 *
 * @example fsKey('/work/src/a.ts') // 'fs:/work/src/a.ts'
 */
export function fsKey(canonical: string): string {
  return `fs:${sep === '/' ? canonical : canonical.split(sep).join('/')}`;
}
