/**
 * Whether two access keys overlap: a key overlaps itself, its ancestors and its descendants
 * (`fs:/a` overlaps `fs:/a/b.txt`, not `fs:/ab`). The planner's rule, restated here because
 * this package depends on `@toolwaves/core` only; a test checks the two agree.
 */
export function keysOverlap(a: string, b: string): boolean {
  return covers(a, b) || covers(b, a);
}

function covers(ancestor: string, key: string): boolean {
  if (key === ancestor) return true;
  if (!key.startsWith(ancestor)) return false;
  return ancestor.endsWith('/') || key.charAt(ancestor.length) === '/';
}
