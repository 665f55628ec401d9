/**
 * Whether two resource keys overlap. Keys are `/`-separated paths: a key overlaps itself, its
 * ancestors and its descendants. Precisely, `a` covers `b` when `b === a`, or `b` starts with
 * `a` and continues past a `/` boundary (`a` ends with `/`, or the next character of `b` is
 * `/`); two keys overlap when either covers the other. So a trailing `/` changes nothing
 * (`fs:/a/` is `fs:/a`), and keys without `/` (the seed model's `a`, `file:a.rs`) overlap
 * only themselves.
 *
 * @example
 * keysOverlap('fs:/a', 'fs:/a/b.txt'); // true
 * keysOverlap('fs:/a', 'fs:/ab');      // false
 * @see conflicts
 */
export function keysOverlap(a: string, b: string): boolean {
  return covers(a, b) || covers(b, a);
}

function covers(ancestor: string, key: string): boolean {
  if (key === ancestor) return true;
  if (!key.startsWith(ancestor)) return false;
  return ancestor.endsWith('/') || key.charCodeAt(ancestor.length) === SLASH;
}

const SLASH = 47;
