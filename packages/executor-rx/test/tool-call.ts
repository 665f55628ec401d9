import type { ToolCall } from '@toolwaves/core';

/**
 * A tool call as a model would send it, for the batches these tests dispatch: the id it is
 * answered by, the tool's name, and the input (an empty object unless given).
 *
 * @example
 * ```ts
 * await dispatcher.dispatch([call('a', 'read_file', { path: 'a.ts' }), call('b', 'stat')]);
 * ```
 */
export const call = (id: string, name: string, input: unknown = {}): ToolCall => ({
  id,
  name,
  input,
});
