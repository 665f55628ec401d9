import type { BenchReport } from './bench-report.js';
import { formatPercent } from './format-figures.js';
import { headlineBlocks } from './headline-markdown.js';
import { blocksToMarkdown, type ReportBlock } from './report-blocks.js';

/**
 * `report.md` (pure): the strategies, the headline ({@link headlineMarkdown}, with the real runs),
 * the workloads, and a pointer to how the figures are made (every figure is in `report.json`).
 *
 * @example await writeFile('report.md', renderMarkdown(report));
 * @see renderHtml
 */
export function renderMarkdown(report: BenchReport): string {
  return `${blocksToMarkdown(reportBlocks(report))}\n`;
}

/**
 * Everything in the report as blocks: what {@link renderMarkdown} writes and `renderHtml` renders
 * below its charts.
 */
export function reportBlocks(report: BenchReport): ReportBlock[] {
  const { meta } = report;
  const { sizes, repeats, warmupTurns } = meta.profile;
  return [
    { kind: 'heading', level: 1, text: 'toolwaves strategy benchmark' },
    {
      kind: 'paragraph',
      text: `Generated ${meta.generatedAt} on ${meta.environment}${meta.quick ? ' (quick run)' : ''}. Strategies compared:`,
    },
    {
      kind: 'list',
      items: meta.strategies.map(
        ({ name, clairvoyant, description }) =>
          `**${name}**${clairvoyant ? ' (clairvoyant)' : ''} — ${description}`,
      ),
    },
    { kind: 'heading', level: 2, text: 'Headline' },
    ...headlineBlocks(report),
    { kind: 'heading', level: 2, text: 'Workloads' },
    {
      kind: 'list',
      items: report.workloads.map(
        ({ name, description, batches, calls, estimates }) =>
          `**${name}** — ${description} ${batches} batches, ${calls} calls per seed; estimates off by ${formatPercent(estimates.medianError)} at the median.`,
      ),
    },
    {
      kind: 'paragraph',
      text: `How the batches, durations, estimates, streamed turns, simulation and real runs are made: the bench README (packages/bench/README.md, "What the figures are"). Seeds ${meta.seeds.join(', ')}; sizes ${sizes.join(', ')}, ${repeats} batch(es) each; health record warmed on ${warmupTurns} turns; ${meta.tokensPerSecond} tokens/s.`,
    },
  ];
}
