/**
 * JSON with object keys sorted at every depth, so two inputs that differ only in key order
 * give the same text. `undefined` properties are left out (as `JSON.stringify` does); a
 * top-level `undefined` gives `"undefined"`.
 *
 * @throws TypeError for circular structures (as `JSON.stringify` does).
 * @example canonicalJson({ b: 1, a: { d: 2, c: 3 } }) // '{"a":{"c":3,"d":2},"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, sortKeys) ?? 'undefined';
}

function sortKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = (value as Record<string, unknown>)[key];
  return sorted;
}
