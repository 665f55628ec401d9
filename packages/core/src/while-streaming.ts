import type { OptionRule } from './option-rule.js';
import type { Declarations } from './read-declarations.js';

/**
 * Which calls of a message the model is still writing may start before the message is complete
 * (option `whileStreaming` of streams, turns and the adapters that feed them):
 * - `'read-only'`: only calls known to be concurrency-safe reads (see
 *   {@link mayStartWhileStreaming}); every other call waits for the message's normal end, and
 *   never starts when the message fails or is cancelled, so a model attempt that is thrown away
 *   and retried leaves no side effect behind;
 * - `'all'`: every call starts as soon as the rules allow, whether or not the message completes.
 */
export type WhileStreaming = 'all' | 'read-only';

/** What {@link WhileStreaming} may be, in an option check's words. */
export const WHILE_STREAMING: OptionRule<WhileStreaming> = {
  expected: "'all' or 'read-only'",
  test: (value): value is WhileStreaming => value === 'all' || value === 'read-only',
};

/**
 * Whether a call may start while the model is still writing its message under
 * `whileStreaming: 'read-only'`: an allowlist over core's one reading of the call's declarations
 * ({@link readDeclarations}). Only a call positively known to be a concurrency-safe read passes:
 * declared safe, every declaration read cleanly, and every access it declares a `read` (a plain
 * `resourceKey` is a write). An unknown tool, an invalid input, a declaration that threw or was
 * malformed, an unsafe call and any declared write are held back.
 *
 * @example
 * ```ts
 * mayStartWhileStreaming(readDeclarations(readFile, { path: 'a.ts' })); // true
 * mayStartWhileStreaming(readDeclarations(writeFile, { path: 'a.ts', content: '' })); // false
 * mayStartWhileStreaming(readDeclarations(undefined, {})); // false: unknown tool
 * ```
 * @see readDeclarations
 */
export function mayStartWhileStreaming(declarations: Declarations): boolean {
  if (!declarations.safe || declarations.unreadable) return false;
  for (const access of declarations.accesses) if (access.mode !== 'read') return false;
  return true;
}
