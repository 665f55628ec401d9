import type { ServiceIdentifier } from 'inversify';
import type { HostFence } from './host-fence.js';

/**
 * The inversify service identifier of the {@link HostFence}: the host-shared commit step the fs
 * write tools go through, one per user for every workspace. `fsToolsModule` always binds it (in
 * `fenceTempDir`); inject it into a tool of your own that writes the same files.
 *
 * @example
 * ```ts
 * constructor(@inject(FS_HOST_FENCE) private readonly fence: HostFence) { super(); }
 * ```
 * @see HostFence
 */
export const FS_HOST_FENCE: ServiceIdentifier<HostFence> = Symbol.for('toolwaves.fs.HostFence');
