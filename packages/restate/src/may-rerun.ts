import type { Tool } from '@toolwaves/core';
import { readDeclarations } from '@toolwaves/core/internal';

/**
 * Whether a call may run again after a crash cut it off: its tool declares `idempotent: true`,
 * or the call is read-only: concurrency-safe, declaring at least one access, every one a read.
 * An allowlist: a tool that declares nothing (or whose declarations cannot be read) is neither.
 */
export function mayRerun(tool: Tool | undefined, input: unknown): boolean {
  if (tool === undefined) return false;
  if (tool.idempotent === true) return true;
  const declared = readDeclarations(tool, input);
  return (
    declared.safe &&
    !declared.unreadable &&
    declared.accesses.length > 0 &&
    declared.accesses.every((access) => access.mode === 'read')
  );
}
