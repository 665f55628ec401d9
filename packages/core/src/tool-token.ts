import type { ServiceIdentifier } from 'inversify';

/**
 * The inversify service identifier every tool is bound under (a multi-binding).
 *
 * @see bindTools
 * @see ToolRegistry.fromContainer
 */
export const TOOL: ServiceIdentifier<object> = Symbol.for('toolwaves.Tool');
