/** Options of {@link formatTable}. */
export interface FormatTableOptions {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** Columns aligned right (numbers). */
  readonly alignRight?: readonly number[];
}

/**
 * A plain-text table with padded columns, for terminals.
 *
 * @example formatTable({ header: ['planner', 'waves'], rows: [['greedy', '7']], alignRight: [1] })
 */
export function formatTable(options: FormatTableOptions): string {
  const { header, rows } = options;
  const right = new Set(options.alignRight ?? []);
  const width = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        right.has(column) ? cell.padStart(width[column] ?? 0) : cell.padEnd(width[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return [line(header), width.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
