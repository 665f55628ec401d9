import { BenchError } from '../bench-error.js';
import type {
  BenchReport,
  RealRunFigures,
  RealStreamFigures,
  StrategySummary,
  TurnMode,
} from './bench-report.js';
import { formatDuration, formatPercent, formatRatio, formatSpread } from './format-figures.js';
import { blocksToMarkdown, type ReportBlock } from './report-blocks.js';

/**
 * The headline of a run, in markdown (pure): every strategy over all workloads, batch and
 * streamed, as a ratio to greedy and to the lower bound with the spread across seeds; per
 * workload, the ratios to greedy; real-run wall-clock ratios; and the command that reproduces it. The same text goes at the top of
 * `report.md`, is printed by `pnpm bench`, and is what `--update-readme` puts in the package
 * README.
 *
 * @example console.log(headlineMarkdown(report));
 * @see renderMarkdown
 */
export function headlineMarkdown(report: BenchReport): string {
  return blocksToMarkdown(headlineBlocks(report));
}

/** The headline as report blocks: what {@link headlineMarkdown} prints and `report.md` and `report.html` open with. */
export function headlineBlocks(report: BenchReport): ReportBlock[] {
  const { meta, overall } = report;
  const reference = meta.reference ?? 'the reference';
  const seeds = meta.seeds;
  const seedText =
    seeds.length === 1 ? `seed ${seeds[0]}` : `seeds ${seeds[0]}–${seeds[seeds.length - 1]}`;
  const clairvoyant = meta.strategies.filter((strategy) => strategy.clairvoyant);
  const rows = meta.strategies.map(({ name, clairvoyant }) => {
    const [batch, stream] = [find(overall.batch, name), find(overall.stream, name)];
    const overlaps = [batch, stream].map((summary) =>
      summary === undefined ? '–' : `${summary.conflictingOverlaps} (${summary.lostUpdates})`,
    );
    return [
      clairvoyant ? `${name} †` : name,
      ...summaryCells(batch, stream),
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
      text: `Simulated turn time of every strategy, summed over ${overall.batches} batches (${overall.calls} calls) per seed, ${seedText}; \`maxConcurrency\` ${meta.maxConcurrency}; streamed turns written at ${meta.tokensPerSecond} tokens/s. Each cell is the median across seeds, with the range [min–max] when the seeds disagree. Planners plan on the health record's estimates, never on the sampled durations the simulation uses.${clairvoyant.length === 0 ? '' : ` † ${clairvoyant.map((strategy) => `\`${strategy.name}\``).join(', ')}: optimal, knowing durations — headroom, not achievable.`}`,
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
      text: `LB: the lower bound no strategy keeping the rules can beat (batch: the planner package's \`lowerBound\`; streamed: with arrivals). Streamed turn: mean time from the first tool-call token to the last result; after stream: mean tool time once the model stopped writing. Per workload, ÷ ${reference}:`,
    },
    perWorkload('batch'),
    perWorkload('stream'),
    ...realBlocks(report),
    { kind: 'paragraph', text: `Reproduce: \`${meta.command}\`` },
  ];
}

/** A strategy's ratios to the reference and to the lower bound, batch and streamed, and its streamed times. */
export function summaryCells(
  batch: StrategySummary | undefined,
  stream: StrategySummary | undefined,
): string[] {
  return [
    formatSpread(batch?.versusGreedy ?? null, formatRatio),
    formatSpread(batch?.versusBound ?? null, formatRatio),
    formatSpread(stream?.versusGreedy ?? null, formatRatio),
    formatSpread(stream?.versusBound ?? null, formatRatio),
    formatSpread(stream?.turnMs ?? null, formatDuration),
    formatSpread(stream?.afterStreamMs ?? null, formatDuration),
  ];
}

function find(summaries: readonly StrategySummary[], strategy: string) {
  return summaries.find((summary) => summary.strategy === strategy);
}

/** The real runs, batch and streamed, per workload: wall-clock ratios with their noise. */
function realBlocks(report: BenchReport): ReportBlock[] {
  const { realRuns, realStreams, meta } = report;
  const blocks: ReportBlock[] = [];
  const perWorkload = <T extends { workload: string; spread: number; errors: number }>(
    runs: readonly T[],
    cells: (own: readonly T[]) => string[],
  ) =>
    [...new Set(runs.map((run) => run.workload))].map((workload) => {
      const own = runs.filter((run) => run.workload === workload);
      return [
        workload,
        ...cells(own),
        formatPercent(Math.max(...own.map((run) => run.spread))),
        String(own.reduce((sum, run) => sum + run.errors, 0)),
      ];
    });
  const ratio = (a: number | undefined, b: number | undefined): string =>
    a === undefined || b === undefined || b === 0 ? '–' : formatRatio(a / b);
  if (realRuns.length > 0) {
    const reference = meta.reference ?? meta.planners[0]!;
    const others = meta.planners.filter((planner) => planner !== reference);
    const wall = (own: readonly RealRunFigures[], planner: string) =>
      own.find((run) => run.planner === planner)?.wallMs;
    blocks.push(
      {
        kind: 'paragraph',
        text: `Real runs (seed ${meta.seeds[0]}): the batches of ${meta.realSizes.join(', ')} calls dispatched with the real filesystem tools on a generated workspace, planned on the estimates, latency injected at ${meta.latencyScale} × the sampled durations, median of ${meta.realRepeats} run(s); wall-clock summed per workload. Differences below the spread are noise.`,
      },
      {
        kind: 'table',
        headers: [
          'workload',
          `${reference} wall-clock`,
          ...others.map((planner) => `${planner} ÷ ${reference}`),
          'spread (noise)',
          'error results',
        ],
        rows: perWorkload(realRuns, (own) => [
          formatDuration(wall(own, reference) ?? null),
          ...others.map((planner) => ratio(wall(own, planner), wall(own, reference))),
        ]),
      },
    );
  }
  if (realStreams.length > 0) {
    const waves = realStreams.find((run) => run.strategy !== 'eager')?.strategy ?? 'greedy';
    const of = (own: readonly RealStreamFigures[], strategy: string) =>
      own.find((run) => run.strategy === strategy);
    blocks.push(
      {
        kind: 'paragraph',
        text: `Real streamed turns (seed ${meta.seeds[0]}): the batches of ${meta.realSizes.join(', ')} calls written by a timed source in real time (the token model's arrival times × ${meta.streamLatencyScale}) and run with the real filesystem tools (latency × ${meta.streamLatencyScale}): \`eager\` feeds the source to \`dispatchStream\`; ${waves} reads the whole stream, then dispatches its waves. Wall-clock from the first tool-call token to the last result, median of ${meta.realRepeats} run(s), summed per workload.`,
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
        rows: perWorkload(realStreams, (own) => {
          const [base, eager] = [of(own, waves), of(own, 'eager')];
          return [
            formatDuration(base?.wallMs ?? null),
            formatDuration(eager?.wallMs ?? null),
            ratio(eager?.wallMs, base?.wallMs),
            ratio(eager?.simulatedMs, base?.simulatedMs),
          ];
        }),
      },
    );
  }
  return blocks;
}

/** Marks the start of the generated headline in a README. */
export const HEADLINE_START = '<!-- bench:headline:start -->';
/** Marks its end. */
export const HEADLINE_END = '<!-- bench:headline:end -->';

/**
 * Puts a new headline between the {@link HEADLINE_START} and {@link HEADLINE_END} markers of a
 * README (pure), keeping everything else; what `pnpm bench --update-readme` does.
 *
 * @throws {BenchError} `invalid_options` when the markers are missing or out of order.
 * @example replaceHeadline({ readme, headline: headlineMarkdown(report) });
 */
export function replaceHeadline(options: { readme: string; headline: string }): string {
  const { readme, headline } = options;
  const start = readme.indexOf(HEADLINE_START);
  const end = readme.indexOf(HEADLINE_END);
  if (start === -1 || end === -1 || end < start) {
    throw new BenchError({
      code: 'invalid_options',
      message: `Expected the README to hold \`${HEADLINE_START}\` followed by \`${HEADLINE_END}\``,
    });
  }
  return `${readme.slice(0, start + HEADLINE_START.length)}\n\n${headline.trim()}\n\n${readme.slice(end)}`;
}
