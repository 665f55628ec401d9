import { escapeXml } from './charts/escape-xml.js';
import type { ReportBlock } from './report-block.js';

/**
 * Report blocks as HTML (pure): headings, paragraphs, bullet lists and tables, built from the
 * blocks themselves (no markdown is parsed); text is escaped, `code` and **bold** spans become
 * `<code>` and `<strong>`.
 *
 * @example blocksToHtml([{ kind: 'paragraph', text: 'Some `code`.' }]); // '<p>Some <code>code</code>.</p>'
 * @see blocksToMarkdown
 */
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
      const numericFrom = block.numericFrom ?? 1;
      const row = (cells: readonly string[], tag: 'td' | 'th'): string =>
        `<tr>${cells
          .map(
            (cell, column) =>
              `<${tag} class="${column >= numericFrom ? 'right' : 'left'}">${inline(cell)}</${tag}>`,
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
