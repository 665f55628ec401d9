import type { ServiceIdentifier } from 'inversify';
import type { ReadCache } from './read-cache.js';

/**
 * The inversify service identifier of the {@link ReadCache} shared by the filesystem tools.
 * `fsToolsModule` always binds one; it only stores anything with `cachedReads: true`.
 *
 * @example
 * ```ts
 * container.load(fsToolsModule({ root: '/work', cachedReads: true }));
 * container.get(FS_READ_CACHE).stats; // { hits: 0, misses: 0, entries: 0 }
 * ```
 */
export const FS_READ_CACHE: ServiceIdentifier<ReadCache> = Symbol.for('toolwaves.fs.ReadCache');
