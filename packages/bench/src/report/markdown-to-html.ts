import { escapeXml } from '../charts/escape-xml.js';

/**
 * Turns the markdown the bench writes into HTML (pure): headings, paragraphs, bullet lists,
 * pipe tables (with their alignment), `code` and **bold**. Not a general markdown parser: it
 * knows only what `renderMarkdown` produces; any other text is escaped and kept as a paragraph.
 *
 * @example markdownToHtml('## Title\n\nSome `code`.'); // '<h2>Title</h2>\n<p>Some <code>code</code>.</p>'
 */
export function markdownToHtml(markdown: string): string {
  const blocks = markdown.split(/\n{2,}/);
  return blocks
    .map((block) => block.trim())
    .filter((block) => block.length > 0)
    .map(renderBlock)
    .join('\n');
}

function renderBlock(block: string): string {
  const heading = /^(#{1,4}) (.*)$/.exec(block);
  if (heading !== null && !block.includes('\n')) {
    const level = heading[1]!.length;
    return `<h${level}>${inline(heading[2]!)}</h${level}>`;
  }
  const lines = block.split('\n');
  if (lines.every((line) => line.startsWith('|'))) return table(lines);
  if (lines.every((line) => line.startsWith('- '))) {
    return `<ul>${lines.map((line) => `<li>${inline(line.slice(2))}</li>`).join('')}</ul>`;
  }
  return `<p>${inline(lines.join(' '))}</p>`;
}

function table(lines: readonly string[]): string {
  const cells = (line: string): string[] =>
    line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim().replaceAll('\\|', '|'));
  const [head, align, ...body] = lines;
  const alignment = cells(align ?? '').map((spec) => (spec.endsWith(':') ? 'right' : 'left'));
  const row = (line: string, tag: 'td' | 'th'): string =>
    `<tr>${cells(line)
      .map(
        (cell, column) => `<${tag} class="${alignment[column] ?? 'left'}">${inline(cell)}</${tag}>`,
      )
      .join('')}</tr>`;
  return `<table><thead>${row(head ?? '', 'th')}</thead><tbody>${body.map((line) => row(line, 'td')).join('')}</tbody></table>`;
}

function inline(text: string): string {
  return escapeXml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}
