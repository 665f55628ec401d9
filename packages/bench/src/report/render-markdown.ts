import type { BenchReport, StrategySummary, WorkloadFigures } from './bench-report.js';
import { formatPercent } from './format-figures.js';
import { headlineBlocks, summaryCells } from './headline-markdown.js';
import { blocksToMarkdown, type ReportBlock } from './report-blocks.js';

/**
 * `report.md` (pure): the headline ({@link headlineMarkdown}, with the real runs), one table per
 * workload, and a pointer to how the figures are made.
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
      kind: 'paragraph',
      text: 'Per strategy, median [range] across seeds; overlaps count conflicting pairs that ran at once (lost updates); invalid: turns breaking the rules.',
    },
    ...report.workloads.flatMap(workloadSection),
    {
      kind: 'paragraph',
      text: `How the batches, durations, estimates, streamed turns, simulation and real runs are made: the bench README (packages/bench/README.md, "What the figures are"). Seeds ${meta.seeds.join(', ')}; sizes ${meta.sizes.join(', ')}, ${meta.repeats} batch(es) each; health record warmed on ${meta.warmupTurns} turns; ${meta.tokensPerSecond} tokens/s.`,
    },
  ];
}

function workloadSection(workload: WorkloadFigures): ReportBlock[] {
  const row = (batch: StrategySummary): string[] => {
    const stream = workload.stream.find((entry) => entry.strategy === batch.strategy)!;
    return [
      batch.strategy,
      ...summaryCells(batch, stream),
      `${batch.conflictingOverlaps} (${batch.lostUpdates}) / ${stream.conflictingOverlaps} (${stream.lostUpdates})`,
      String(batch.invalidPlans),
      formatPercent(batch.proven),
    ];
  };
  const { estimates, perBatch } = workload;
  const sizes = perBatch.map((batch) => batch.size);
  return [
    { kind: 'heading', level: 3, text: workload.name },
    {
      kind: 'paragraph',
      text: `${workload.description} ${workload.batches} batch${workload.batches === 1 ? '' : 'es'} and ${workload.calls} calls per seed, sizes ${Math.min(...sizes)}–${Math.max(...sizes)}. Estimates off by ${formatPercent(estimates.medianError)} at the median, ${formatPercent(estimates.p90Error)} at p90 (${estimates.unseen} of ${estimates.calls} calls of a tool not seen yet).`,
    },
    {
      kind: 'table',
      headers: [
        'strategy',
        'batch ÷ greedy',
        'batch ÷ LB',
        'streamed ÷ greedy',
        'streamed ÷ LB',
        'streamed turn',
        'after stream',
        'overlaps (lost) batch / streamed',
        'invalid',
        'proven',
      ],
      rows: workload.batch.map(row),
    },
  ];
}
