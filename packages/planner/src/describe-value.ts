/**
 * Renders a value for an error message the way p-queue does: `` `0` (number) ``.
 * Internal to the package: the planner's error messages use it.
 *
 * @example describeValue(0) // "`0` (number)"
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
