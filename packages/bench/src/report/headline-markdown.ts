import { rateLimitedBlocks } from '../limits/rate-limited-blocks.js';
import type { BenchReport, StrategySummary, TurnMode } from './bench-report.js';
import { formatDuration, formatPercent, formatRatio, formatSpread } from './format-figures.js';
import { blocksToMarkdown, type ReportBlock } from './report-blocks.js';
import { retriedStreamsBlocks } from './retried-streams-blocks.js';

/**
 * The headline of a run, in markdown (pure): every strategy over all workloads, batch and
 * streamed, as ratios to greedy and to the lower bound with the spread across seeds; per
 * workload, the ratios to greedy; the real streamed runs; and the command that reproduces it. It
 * opens `report.md` and is printed by `pnpm bench`.
 *
 * @example console.log(headlineMarkdown(report));
 * @see renderMarkdown
 */
export function headlineMarkdown(report: BenchReport): string {
  return blocksToMarkdown(headlineBlocks(report));
}

/**
 * The headline as report blocks: what {@link headlineMarkdown} prints and the reports open with.
 */
export function headlineBlocks(report: BenchReport): ReportBlock[] {
  const { meta, overall } = report;
  const reference = meta.reference ?? 'the reference';
  const [first, last] = [meta.seeds[0], meta.seeds[meta.seeds.length - 1]];
  const clairvoyant = meta.strategies.filter((strategy) => strategy.clairvoyant);
  const rows = meta.strategies.map(({ name, clairvoyant }) => {
    const [batch, stream] = [find(overall.batch, name), find(overall.stream, name)];
    const overlaps = [batch, stream].map((summary) =>
      summary === undefined ? '–' : `${summary.conflictingOverlaps} (${summary.lostUpdates})`,
    );
    return [
      clairvoyant ? `${name} †` : name,
      formatSpread(batch?.versusGreedy ?? null, formatRatio),
      formatSpread(batch?.versusBound ?? null, formatRatio),
      formatSpread(stream?.versusGreedy ?? null, formatRatio),
      formatSpread(stream?.versusBound ?? null, formatRatio),
      formatSpread(stream?.turnMs ?? null, formatDuration),
      formatSpread(stream?.afterStreamMs ?? null, formatDuration),
      overlaps[0] === overlaps[1] ? overlaps[0]! : `${overlaps[0]} batch, ${overlaps[1]} streamed`,
    ];
  });
  const perWorkload = (mode: TurnMode): ReportBlock => ({
    kind: 'table',
    headers: [mode === 'batch' ? 'batch' : 'streamed', ...report.workloads.map(({ name }) => name)],
    rows: meta.strategies
      .filter(({ name }) => name !== meta.reference)
      .map(({ name }) => [
        name,
        ...report.workloads.map((workload) =>
          formatSpread(find(workload[mode], name)?.versusGreedy ?? null, formatRatio),
        ),
      ]),
  });
  return [
    {
      kind: 'paragraph',
      text: `Simulated turn time of every strategy, summed over ${overall.batches} batches (${overall.calls} calls) per seed, ${first === last ? `seed ${first}` : `seeds ${first}–${last}`}; \`maxConcurrency\` ${meta.maxConcurrency}; streamed turns written at ${meta.tokensPerSecond} tokens/s. Median across seeds [min–max when they disagree]. Planners see the health record's estimates (off by ${formatPercent(overall.estimates.medianError)} at the median), never the sampled durations.${clairvoyant.length === 0 ? '' : ` † ${clairvoyant.map((strategy) => `\`${strategy.name}\``).join(', ')}: optimal, knowing durations — headroom, not achievable.`}`,
    },
    {
      kind: 'table',
      headers: [
        'strategy',
        `batch ÷ ${reference}`,
        'batch ÷ LB',
        `streamed ÷ ${reference}`,
        'streamed ÷ LB',
        'streamed turn',
        'after stream',
        'conflicting overlaps (lost updates)',
      ],
      rows,
    },
    {
      kind: 'paragraph',
      text: `LB: the lower bound no strategy keeping the rules can beat. Streamed turn: mean time from the first tool-call token to the last result; after stream: the tool time once the model stopped writing. Per workload, ÷ ${reference}:`,
    },
    perWorkload('batch'),
    perWorkload('stream'),
    ...realBlocks(report),
    ...retriedStreamsBlocks(report),
    ...rateLimitedBlocks(report.rateLimited),
    { kind: 'paragraph', text: `Reproduce: \`${meta.command}\`` },
  ];
}

function find(summaries: readonly StrategySummary[], strategy: string) {
  return summaries.find((summary) => summary.strategy === strategy);
}

/** The real streamed turns per workload: wall-clock ratios beside the simulated ones, with their noise. */
function realBlocks(report: BenchReport): ReportBlock[] {
  const { meta, realStreams: runs } = report;
  if (runs.length === 0) return [];
  const waves = runs.find((run) => run.strategy !== 'eager')?.strategy ?? 'greedy';
  const ratio = (a: number | undefined, b: number | undefined): string =>
    a === undefined || b === undefined || b === 0 ? '–' : formatRatio(a / b);
  return [
    {
      kind: 'paragraph',
      text: `Real streamed turns (seed ${meta.seeds[0]}): the batches of ${meta.profile.realSizes.join(', ')} calls written by a timed source in real time (the token model's arrivals × ${meta.streamLatencyScale}), real filesystem tools (latency × ${meta.streamLatencyScale}): \`eager\` feeds the source to \`dispatchStream\`; ${waves} reads the whole stream, then dispatches its waves. Median of ${meta.profile.realRepeats} run(s), summed per workload.`,
    },
    {
      kind: 'table',
      headers: [
        'workload',
        `${waves} (wait-then-waves)`,
        'eager (dispatchStream)',
        `eager ÷ ${waves}`,
        'simulated',
        'spread (noise)',
        'error results',
      ],
      rows: [...new Set(runs.map((run) => run.workload))].map((workload) => {
        const own = runs.filter((run) => run.workload === workload);
        const of = (name: string) => own.find((run) => run.strategy === name);
        return [
          workload,
          formatDuration(of(waves)?.wallMs ?? null),
          formatDuration(of('eager')?.wallMs ?? null),
          ratio(of('eager')?.wallMs, of(waves)?.wallMs),
          ratio(of('eager')?.simulatedMs, of(waves)?.simulatedMs),
          formatPercent(Math.max(...own.map((run) => run.spread))),
          String(own.reduce((sum, run) => sum + run.errors, 0)),
        ];
      }),
    },
  ];
}
