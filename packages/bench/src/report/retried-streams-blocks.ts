import type { BenchReport } from './bench-report.js';
import { formatDuration, formatPercent, formatRatio, formatSpread } from './format-figures.js';
import type { ReportBlock } from './report-blocks.js';

/**
 * The retried-streams workload in the headline (pure): per `whileStreaming` value, the side
 * effects started from model attempts that were thrown away, and the turn time; then what
 * `'read-only'` costs against `'all'`. Nothing when the run had no such turns.
 *
 * @example blocksToMarkdown(retriedStreamsBlocks(report));
 * @see headlineBlocks
 */
export function retriedStreamsBlocks(report: BenchReport): ReportBlock[] {
  const figures = report.retriedStreams;
  if (figures === null || figures === undefined) return [];
  const { meta } = report;
  const count = (value: number) => String(Math.round(value));
  return [
    {
      kind: 'paragraph',
      text: `Retried streams: ${figures.turns} streamed turns per seed whose model stream fails mid-message in ${formatPercent(figures.failShare)} of attempts (${formatSpread(figures.failedAttempts, count)} of ${formatSpread(figures.attempts, count)} attempts thrown away); the harness asks again at once, and the retried attempt asks for different calls half the time. The real \`Dispatcher\` runs them on a virtual clock, \`maxConcurrency\` ${meta.maxConcurrency}, knowing only the calls as they arrive and their declarations. Side effects: writes and commands whose tool started from an attempt that was then thrown away.`,
    },
    {
      kind: 'table',
      headers: ['whileStreaming', 'side effects from discarded attempts', 'turn', 'after stream'],
      rows: figures.strategies.map((strategy) => [
        `'${strategy.whileStreaming}'`,
        formatSpread(strategy.discardedSideEffects, count),
        formatSpread(strategy.turnMs, formatDuration),
        formatSpread(strategy.afterStreamMs, formatDuration),
      ]),
    },
    {
      kind: 'paragraph',
      text: `\`'read-only'\` ÷ \`'all'\`, summed turn time: ${formatSpread(figures.readOnlyVersusAll, formatRatio)} — what holding writes and commands until the message is complete costs.`,
    },
  ];
}
