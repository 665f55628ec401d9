/** Options of {@link markdownTable}. */
export interface MarkdownTableOptions {
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** Columns from this index on are right-aligned (default 1: every column but the first). */
  readonly numericFrom?: number;
}

/**
 * A GitHub-flavoured markdown table; `|` in cells is escaped.
 *
 * @example markdownTable({ headers: ['planner', 'ratio'], rows: [['greedy', '1.04']] });
 * // '| planner | ratio |\n| :-- | --: |\n| greedy | 1.04 |'
 */
export function markdownTable(options: MarkdownTableOptions): string {
  const numericFrom = options.numericFrom ?? 1;
  const cell = (text: string): string => text.replaceAll('|', '\\|');
  const line = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;
  const align = options.headers.map((_, column) => (column >= numericFrom ? '--:' : ':--'));
  return [line(options.headers), `| ${align.join(' | ')} |`, ...options.rows.map(line)].join('\n');
}
