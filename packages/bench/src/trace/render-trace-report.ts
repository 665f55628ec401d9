import { formatDuration, formatRatio } from '../report/format-figures.js';
import { htmlPage, ratioFigure } from '../report/render-html.js';
import { blocksToMarkdown, type ReportBlock } from '../report/report-blocks.js';
import type { TraceReport, TraceStrategyFigures } from './replay-trace.js';

const HEADERS = [
  'strategy',
  'batch',
  'batch ÷ greedy',
  'streamed turn',
  'after stream',
  'after stream ÷ greedy',
  'conflicting overlaps',
];

function strategyRows(strategies: readonly TraceStrategyFigures[]): string[][] {
  return strategies.map((row) => [
    row.strategy,
    formatDuration(row.makespanMs),
    formatRatio(row.versusGreedy),
    formatDuration(row.streamedMs),
    formatDuration(row.afterStreamMs),
    formatRatio(row.afterStreamVersusGreedy),
    String(row.conflictingOverlaps),
  ]);
}

/**
 * The trace replay as report blocks (pure): what was read, the strategies' totals, the same
 * per model, and where the method is.
 *
 * @example blocksToMarkdown(traceReportBlocks(report));
 */
export function traceReportBlocks(report: TraceReport): ReportBlock[] {
  const { trace, meta } = report;
  const unknown = Object.entries(trace.unknownTools).map(
    ([name, count]) => `\`${name}\` ×${count}`,
  );
  return [
    { kind: 'heading', level: 1, text: 'toolwaves trace replay' },
    {
      kind: 'paragraph',
      text: `${meta.file} (${trace.format}): ${trace.turns} model turns with tool calls, ${trace.calls} calls, ${trace.multiCallTurns} turns with 2 calls or more, ${trace.conflictingPairs} conflicting pairs inside turns, ${trace.errors} error results. Shell calls: ${trace.shellCalls}, ${trace.shellReadOnly} of them read-only. Durations: ${trace.durationsFromTrace} from the transcript, ${trace.durationsFromModel} from the latency model of their kind. Unknown tools (not concurrency-safe): ${unknown.length === 0 ? 'none' : unknown.join(', ')}.${trace.skipped.length === 0 ? '' : ` Skipped: ${trace.skipped.join('; ')}.`}`,
    },
    { kind: 'heading', level: 2, text: 'Every strategy over the whole trace' },
    { kind: 'table', headers: HEADERS, rows: strategyRows(report.strategies) },
    ...report.models.flatMap((model): ReportBlock[] => [
      { kind: 'heading', level: 3, text: model.model },
      {
        kind: 'paragraph',
        text: `${model.turns} turns, ${model.calls} calls, ${model.multiCallTurns} with 2 calls or more, ${model.conflictingPairs} conflicting pairs.`,
      },
      { kind: 'table', headers: HEADERS, rows: strategyRows(model.strategies) },
    ]),
    {
      kind: 'paragraph',
      text: `Batch: every call of a turn known at once; streamed: the calls arrive as the model writes them (${meta.tokensPerSecond} tokens/s), and "after stream" is the tool time once it stopped writing. Declarations, latency models by kind and the token model: the bench README, "Replaying a transcript". Durations the transcript lacks are drawn with seed ${meta.seed}; \`maxConcurrency\` ${meta.maxConcurrency}. Reproduce: \`${meta.command}\`.`,
    },
  ];
}

/** `trace-report.md` (pure). @example renderTraceMarkdown(report); */
export function renderTraceMarkdown(report: TraceReport): string {
  return `${blocksToMarkdown(traceReportBlocks(report))}\n`;
}

/**
 * `trace-report.html` (pure): one self-contained page with a chart of the ratios to greedy.
 * @example renderTraceHtml(report);
 */
export function renderTraceHtml(report: TraceReport): string {
  const groups = [{ model: 'all turns', strategies: report.strategies }, ...report.models];
  const chart = {
    id: 'trace-after-stream',
    title: 'Tool time after the stream ÷ greedy',
    groups: groups.map((group) => group.model),
    series: report.strategies.map(({ strategy }) => ({
      name: strategy,
      values: groups.map(
        (group) =>
          group.strategies.find((row) => row.strategy === strategy)?.afterStreamVersusGreedy ??
          null,
      ),
    })),
    yLabel: 'after stream ÷ greedy',
  };
  return htmlPage({
    title: 'toolwaves trace replay',
    intro: `${report.meta.file}: ${report.trace.turns} turns, ${report.trace.calls} calls (${report.trace.format}).`,
    figures: [
      ratioFigure(
        chart,
        'Below 1 a strategy leaves the user less tool time to wait for once the model stopped writing.',
      ),
    ],
    blocks: traceReportBlocks(report).slice(1),
  });
}
