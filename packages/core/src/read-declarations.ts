import type { Access } from '@toolwaves/planner';
import type { Tool } from './tool.js';

/**
 * Why a call may not run alongside others: no tool has its name, its input fails the schema,
 * the tool does not declare it safe, or a declaration threw or answered something malformed.
 */
export type NotSafeReason =
  | 'unknown_tool'
  | 'invalid_input'
  | 'not_declared_safe'
  | 'declaration_threw'
  | 'malformed_declaration';

/**
 * A tool's declarations about one call, read once: what the plan node and the fleet
 * coordinator's request are both built from (`planNodeOf`, `fleetClaimOf`), so the local and the
 * fleet-wide rules cannot drift apart.
 */
export interface Declarations {
  /** The call may run alongside others: declared safe, and every declaration read cleanly. */
  readonly safe: boolean;
  /** Its `resourceKey`, when it declared one (a string) and it was asked for. */
  readonly resourceKey: string | undefined;
  /** Its `access` list, when it declared one (well formed) and it was asked for. */
  readonly access: readonly Access[] | undefined;
  /** Everything it declared it touches: `resourceKey` as a write first, then `access`. */
  readonly accesses: readonly Access[];
  /**
   * Its declarations could not be read (unknown tool, invalid input, a declaration that threw or
   * answered something malformed): it fails closed, excluding every other call everywhere.
   */
  readonly unreadable: boolean;
  /** Why it is not safe; `undefined` when it is. */
  readonly reason: NotSafeReason | undefined;
}

const NO_ACCESS: readonly Access[] = [];

/**
 * The declarations of a call whose tool is unknown or whose input failed the schema: nothing
 * could be read, so it is not safe and excludes everything.
 */
export function unreadableDeclarations(
  reason: 'unknown_tool' | 'invalid_input' | 'declaration_threw' | 'malformed_declaration',
): Declarations {
  return {
    safe: false,
    resourceKey: undefined,
    access: undefined,
    accesses: NO_ACCESS,
    unreadable: true,
    reason,
  };
}

/** Options of {@link readDeclarations}. */
export interface ReadDeclarationsOptions {
  /**
   * Read the key and the access list of a call that is not concurrency-safe too (by default they
   * are consulted only for a safe call: an unsafe call runs alone whatever it touches). Asked for
   * by a dispatcher whose unsafe calls hold only what they declare fleet-wide.
   */
  readonly accessesWhenUnsafe?: boolean | undefined;
}

/**
 * Asks `tool` for its declarations about one call with the validated `input`: whether it is
 * concurrency-safe (default `false`), then its `resourceKey` and its `access` list. Conservative
 * on every doubt: a predicate or declaration that throws, a key that is not a string or an access
 * list that is not a list of `{ key: string, mode: 'read' | 'write' }` make the call unsafe and its
 * declarations unreadable.
 *
 * @example
 * ```ts
 * readDeclarations(readFile, { path: 'a.ts' });
 * // { safe: true, accesses: [{ key: 'fs:/a.ts', mode: 'read' }], unreadable: false, ... }
 * readDeclarations(undefined, {}); // { safe: false, unreadable: true, reason: 'unknown_tool', ... }
 * ```
 * @see planNodeForCall
 * @see fleetClaimOf
 */
export function readDeclarations(
  tool: Tool | undefined,
  input: unknown,
  options: ReadDeclarationsOptions = {},
): Declarations {
  if (tool === undefined) return unreadableDeclarations('unknown_tool');
  let declaredSafe: boolean;
  let key: unknown;
  let access: unknown;
  try {
    declaredSafe = tool.isConcurrencySafe?.(input) === true;
    if (!declaredSafe && options.accessesWhenUnsafe !== true) return NOT_DECLARED_SAFE;
    key = tool.resourceKey?.(input);
    access = tool.access?.(input);
  } catch {
    return unreadableDeclarations('declaration_threw');
  }
  if (key !== undefined && typeof key !== 'string') {
    return unreadableDeclarations('malformed_declaration');
  }
  if (access !== undefined && !isAccessList(access)) {
    return unreadableDeclarations('malformed_declaration');
  }
  // A call that declares nothing (the usual keyless safe tool) shares one answer: nothing is
  // made for it per call.
  if (key === undefined && access === undefined) {
    return declaredSafe ? SAFE_KEYLESS : NOT_DECLARED_SAFE;
  }
  const accesses: Access[] = [];
  if (key !== undefined) accesses.push({ key, mode: 'write' });
  if (access !== undefined) for (const entry of access) accesses.push(entry);
  return {
    safe: declaredSafe,
    resourceKey: key,
    access,
    accesses,
    unreadable: false,
    reason: declaredSafe ? undefined : 'not_declared_safe',
  };
}

/** An unsafe call whose key and accesses were not asked for, or that declares neither. */
const NOT_DECLARED_SAFE: Declarations = {
  safe: false,
  resourceKey: undefined,
  access: undefined,
  accesses: NO_ACCESS,
  unreadable: false,
  reason: 'not_declared_safe',
};

/** A safe call that declares no key and no access list. */
const SAFE_KEYLESS: Declarations = {
  safe: true,
  resourceKey: undefined,
  access: undefined,
  accesses: NO_ACCESS,
  unreadable: false,
  reason: undefined,
};

function isAccessList(value: unknown): value is readonly Access[] {
  return (
    Array.isArray(value) &&
    value.every(
      (entry: Partial<Access> | null) =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof entry.key === 'string' &&
        (entry.mode === 'read' || entry.mode === 'write'),
    )
  );
}
