import { markdownTable } from './markdown-table.js';
import type { ReportBlock } from './report-block.js';

/**
 * Report blocks as GitHub-flavoured markdown (pure), one blank line between blocks.
 *
 * @example blocksToMarkdown([{ kind: 'heading', level: 2, text: 'Headline' }]); // '## Headline'
 * @see blocksToHtml
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
    case 'table':
      return markdownTable(block);
  }
}
