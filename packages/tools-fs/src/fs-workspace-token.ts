import type { ServiceIdentifier } from 'inversify';
import type { Workspace } from './workspace.js';

/**
 * The inversify service identifier of the {@link Workspace} (the sandbox and its limits) the
 * filesystem tools are injected with. `fsToolsModule` binds it.
 *
 * @example
 * ```ts
 * container.load(fsToolsModule({ root: '/work' }));
 * container.get(FS_WORKSPACE).root; // '/work'
 * ```
 */
export const FS_WORKSPACE: ServiceIdentifier<Workspace> = Symbol.for('toolwaves.fs.Workspace');
