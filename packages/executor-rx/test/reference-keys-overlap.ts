/**
 * The key rule of the spec written plainly, as the reference property tests check the
 * executor against (never the planner's own `keysOverlap`): two keys overlap when they are
 * equal or one is a `/`-prefix of the other (`a` and `a/b`, not `a` and `ab`).
 *
 * @example
 * ```ts
 * referenceKeysOverlap('fs:/a', 'fs:/a/b'); // true
 * referenceKeysOverlap('fs:/a', 'fs:/ab');  // false
 * ```
 */
export const referenceKeysOverlap = (a: string, b: string): boolean =>
  a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
