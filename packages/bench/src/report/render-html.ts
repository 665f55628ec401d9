import { type GroupedBarChartOptions, groupedBarChart } from './bar-chart.js';
import type { BenchReport } from './bench-report.js';
import { formatRatio } from './format-figures.js';
import { reportBlocks } from './render-markdown.js';
import { blocksToHtml, escapeXml, type ReportBlock } from './report-blocks.js';

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f24; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; }
h1, h2, h3 { line-height: 1.2; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #d8dee4; padding-bottom: .3rem; }
table { border-collapse: collapse; margin: .8rem 0; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #d8dee4; padding: .25rem .55rem; } th { background: #f3f5f7; }
td.right, th.right { text-align: right; } td.left, th.left { text-align: left; }
code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f3f5f7; padding: 0 .25rem; border-radius: 3px; }
figure { margin: 1.2rem 0; } figcaption { color: #57606a; max-width: 760px; }
svg { max-width: 100%; height: auto; font-family: inherit; }
svg .chart-title { font-size: 14px; font-weight: 600; } svg .tick { font-size: 11px; fill: #57606a; }
svg .axis-label { font-size: 12px; fill: #1b1f24; } svg .series-label { font-size: 12px; font-weight: 600; }
svg .grid { stroke: #e6e9ec; } svg .reference { stroke: #1b1f24; stroke-dasharray: 4 3; }
`;

/**
 * `report.html` (pure): one self-contained page (inline CSS and SVG, no script, font or network
 * request): turn time ÷ greedy per workload and strategy, batch and streamed, as two charts,
 * then everything in `report.md`, rendered from the same blocks ({@link reportBlocks}). Every
 * chart is an `<svg data-chart>` whose series are `[data-series]` elements.
 *
 * @example await writeFile('report.html', renderHtml(report));
 * @see renderMarkdown
 */
export function renderHtml(report: BenchReport): string {
  const { meta } = report;
  const reference = meta.reference;
  const figures = (['batch', 'stream'] as const).map((mode) =>
    reference === null
      ? ''
      : ratioFigure(
          {
            id: mode === 'batch' ? 'ratio' : 'stream-ratio',
            title: `${mode === 'batch' ? 'Whole batches' : 'Streamed turns'}: turn time ÷ ${reference}, per workload (median across seeds)`,
            groups: report.workloads.map((workload) => workload.name),
            series: meta.strategies.map(({ name }) => ({
              name,
              values: report.workloads.map(
                (workload) =>
                  workload[mode].find((row) => row.strategy === name)?.versusGreedy?.median ?? null,
              ),
            })),
            yLabel: `turn time ÷ ${reference}`,
          },
          `Summed over the workload's batches; below 1 a strategy is faster than ${reference}. The tables below give each figure's range across seeds.`,
        ),
  );
  return htmlPage({
    title: 'toolwaves strategy benchmark',
    intro: `Seeds ${meta.seeds.join(', ')}, maxConcurrency ${meta.maxConcurrency}, strategies: ${meta.strategies.map((strategy) => strategy.name).join(', ')}.`,
    figures,
    blocks: reportBlocks(report).slice(1),
  });
}

/** One self-contained HTML page (pure): inline CSS, the figures (inline SVG), then the blocks. */
export function htmlPage(options: {
  readonly title: string;
  readonly intro: string;
  readonly figures: readonly string[];
  readonly blocks: readonly ReportBlock[];
}): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeXml(options.title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>${escapeXml(options.title)}</h1>`,
    `<p>${escapeXml(options.intro)}</p>`,
    '<section id="charts">',
    ...options.figures,
    '</section>',
    blocksToHtml(options.blocks),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A bar chart of ratios (a dashed line at 1) with its caption (backquoted names as code). */
export function ratioFigure(
  chart: Omit<GroupedBarChartOptions, 'referenceLine' | 'format'>,
  caption: string,
): string {
  const svg = groupedBarChart({ ...chart, referenceLine: 1, format: formatRatio });
  const captionHtml = escapeXml(caption).replace(/`([^`]+)`/g, '<code>$1</code>');
  return `<figure>\n${svg}\n<figcaption>${captionHtml}</figcaption>\n</figure>`;
}
