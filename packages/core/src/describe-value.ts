/**
 * Renders a value for an error message the way p-queue does: `` `0` (number) ``. Long values
 * are cut at 80 characters; the type in brackets tells `null` and arrays apart from objects.
 *
 * @example
 * ```ts
 * describeValue(0); // "`0` (number)"
 * describeValue('x'); // "`\"x\"` (string)"
 * describeValue([1]); // "`[1]` (array)"
 * ```
 * @see checkOption, which builds the whole "Expected … got …" message with it.
 */
export function describeValue(value: unknown): string {
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
