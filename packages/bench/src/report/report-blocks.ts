/** One block of a report (markdown and HTML); text may hold `code` and **bold** spans. */
export type ReportBlock =
  | { readonly kind: 'heading'; readonly level: 1 | 2 | 3; readonly text: string }
  | { readonly kind: 'paragraph'; readonly text: string }
  | { readonly kind: 'list'; readonly items: readonly string[] }
  | {
      readonly kind: 'table';
      readonly headers: readonly string[];
      /** Rows of cells; every column but the first is right-aligned. */
      readonly rows: readonly (readonly string[])[];
    };

/**
 * Report blocks as GitHub-flavoured markdown, one blank line between blocks; `|` in cells escaped.
 */
export function blocksToMarkdown(blocks: readonly ReportBlock[]): string {
  return blocks.map(markdownOf).join('\n\n');
}

function markdownOf(block: ReportBlock): string {
  switch (block.kind) {
    case 'heading':
      return `${'#'.repeat(block.level)} ${block.text}`;
    case 'paragraph':
      return block.text;
    case 'list':
      return block.items.map((item) => `- ${item}`).join('\n');
    case 'table': {
      const line = (cells: readonly string[]) =>
        `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
      const align = block.headers.map((_, column) => (column > 0 ? '--:' : ':--'));
      return [line(block.headers), `| ${align.join(' | ')} |`, ...block.rows.map(line)].join('\n');
    }
  }
}

/** Report blocks as HTML (text escaped, `code` and **bold** spans as elements). */
export function blocksToHtml(blocks: readonly ReportBlock[]): string {
  return blocks.map(htmlOf).join('\n');
}

function htmlOf(block: ReportBlock): string {
  switch (block.kind) {
    case 'heading':
      return `<h${block.level}>${inline(block.text)}</h${block.level}>`;
    case 'paragraph':
      return `<p>${inline(block.text)}</p>`;
    case 'list':
      return `<ul>${block.items.map((item) => `<li>${inline(item)}</li>`).join('')}</ul>`;
    case 'table': {
      const row = (cells: readonly string[], tag: 'td' | 'th'): string =>
        `<tr>${cells
          .map(
            (cell, column) =>
              `<${tag} class="${column > 0 ? 'right' : 'left'}">${inline(cell)}</${tag}>`,
          )
          .join('')}</tr>`;
      return `<table><thead>${row(block.headers, 'th')}</thead><tbody>${block.rows
        .map((cells) => row(cells, 'td'))
        .join('')}</tbody></table>`;
    }
  }
}

/** Escapes text and turns `code` and **bold** spans into elements. */
function inline(text: string): string {
  return escapeXml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

/** Escapes text for XML/HTML content and attribute values. */
export function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
