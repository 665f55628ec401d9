/**
 * Renders a value for an error message the way p-queue does: `` `0` (number) ``. Long values
 * are cut at 80 characters; the type in brackets tells `null` and arrays apart from objects.
 * An instance of a named class is named by its class instead (`a ToolRegistry`), because its
 * fields say less than its kind when it was passed where another kind belongs.
 *
 * @example
 * ```ts
 * describeValue(0); // "`0` (number)"
 * describeValue('x'); // "`\"x\"` (string)"
 * describeValue([1]); // "`[1]` (array)"
 * describeValue(new ToolRegistry()); // "a ToolRegistry"
 * ```
 * @see checkOption, which builds the whole "Expected … got …" message with it.
 */
export function describeValue(value: unknown): string {
  const kind = className(value);
  if (kind !== undefined) return `${/^[AEIOU]/i.test(kind) ? 'an' : 'a'} ${kind}`;
  let shown: string;
  try {
    shown =
      typeof value === 'string'
        ? JSON.stringify(value)
        : typeof value === 'number' || typeof value === 'bigint'
          ? String(value)
          : String(JSON.stringify(value) ?? value);
  } catch {
    shown = String(value);
  }
  if (shown.length > 80) shown = `${shown.slice(0, 77)}...`;
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return `\`${shown}\` (${type})`;
}

/** The class name of an instance of a class other than `Object` (and not an array). */
function className(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === null || prototype === Object.prototype) return undefined;
  const name: unknown = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? name : undefined;
}
