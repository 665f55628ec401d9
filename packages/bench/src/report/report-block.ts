/**
 * One block of a report, the model both `renderMarkdown` and `renderHtml` render from: a
 * heading, a paragraph, a bullet list or a table. Text may hold `code` and **bold** spans.
 */
export type ReportBlock =
  | { readonly kind: 'heading'; readonly level: 1 | 2 | 3; readonly text: string }
  | { readonly kind: 'paragraph'; readonly text: string }
  | { readonly kind: 'list'; readonly items: readonly string[] }
  | {
      readonly kind: 'table';
      readonly headers: readonly string[];
      readonly rows: readonly (readonly string[])[];
      /** Columns from this index on are right-aligned (default 1). */
      readonly numericFrom?: number;
    };
