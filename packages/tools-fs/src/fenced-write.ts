import type { ToolContext } from '@toolwaves/core';
import type { FencedWrite } from './host-fence.js';
import type { ResolvedPath } from './workspace.js';

/**
 * The {@link FencedWrite} of an fs write tool's call: the keys of the paths it changes, the
 * call's fencing token, signal and `markCommitted`, and the paths as the model wrote them, for a refusal.
 */
export function fencedWrite(context: ToolContext, paths: readonly ResolvedPath[]): FencedWrite {
  return {
    keys: paths.map((path) => path.key),
    token: context.fencingToken,
    what: paths.map((path) => `\`${path.display}\``).join(' and '),
    signal: context.signal,
    markCommitted: context.markCommitted,
  };
}
