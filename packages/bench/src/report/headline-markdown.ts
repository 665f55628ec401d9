import { BenchError } from '../bench-error.js';
import type { BenchReport, RealFigures, StrategySummary, TurnMode } from './bench-report.js';
import { formatDuration, formatPercent, formatRatio, formatSpread } from './format-figures.js';
import { blocksToMarkdown, type ReportBlock } from './report-blocks.js';

/**
 * The headline of a run, in markdown (pure): every strategy over all workloads, batch and
 * streamed, as ratios to greedy and to the lower bound with the spread across seeds; per
 * workload, the ratios to greedy; the real runs; and the command that reproduces it. It opens
 * `report.md`, is printed by `pnpm bench`, and `--update-readme` puts it in the README.
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
      text: `Simulated turn time of every strategy, summed over ${overall.batches} batches (${overall.calls} calls) per seed, ${first === last ? `seed ${first}` : `seeds ${first}–${last}`}; \`maxConcurrency\` ${meta.maxConcurrency}; streamed turns written at ${meta.tokensPerSecond} tokens/s. Median across seeds [min–max when they disagree]. Planners see the health record's estimates, never the sampled durations.${clairvoyant.length === 0 ? '' : ` † ${clairvoyant.map((strategy) => `\`${strategy.name}\``).join(', ')}: optimal, knowing durations — headroom, not achievable.`}`,
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
    { kind: 'paragraph', text: `Reproduce: \`${meta.command}\`` },
  ];
}

/** A strategy's ratios (÷ reference, ÷ LB; batch, streamed) and its streamed times. */
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
  const { meta } = report;
  const ratio = (a: number | undefined, b: number | undefined): string =>
    a === undefined || b === undefined || b === 0 ? '–' : formatRatio(a / b);
  /** One row per workload: its cells, the worst spread and the error results. */
  const table = <T extends RealFigures>({
    runs,
    name,
    headers,
    cells,
  }: {
    runs: readonly T[];
    name: (run: T) => string;
    headers: string[];
    cells: (of: (name: string) => T | undefined) => string[];
  }): ReportBlock => ({
    kind: 'table',
    headers: ['workload', ...headers, 'spread (noise)', 'error results'],
    rows: [...new Set(runs.map((run) => run.workload))].map((workload) => {
      const own = runs.filter((run) => run.workload === workload);
      return [
        workload,
        ...cells((wanted) => own.find((run) => name(run) === wanted)),
        formatPercent(Math.max(...own.map((run) => run.spread))),
        String(own.reduce((sum, run) => sum + run.errors, 0)),
      ];
    }),
  });
  const sizes = `the batches of ${meta.realSizes.join(', ')} calls`;
  const blocks: ReportBlock[] = [];
  if (report.realRuns.length > 0) {
    const base = meta.reference ?? meta.planners[0]!;
    const others = meta.planners.filter((planner) => planner !== base);
    blocks.push(
      {
        kind: 'paragraph',
        text: `Real runs (seed ${meta.seeds[0]}): ${sizes} dispatched with the real filesystem tools on a generated workspace, planned on the estimates, latency injected at ${meta.latencyScale} × the sampled durations, median of ${meta.realRepeats} run(s); wall-clock summed per workload. Differences below the spread are noise.`,
      },
      table({
        runs: report.realRuns,
        name: (run) => run.planner,
        headers: [`${base} wall-clock`, ...others.map((planner) => `${planner} ÷ ${base}`)],
        cells: (of) => [
          formatDuration(of(base)?.wallMs ?? null),
          ...others.map((planner) => ratio(of(planner)?.wallMs, of(base)?.wallMs)),
        ],
      }),
    );
  }
  if (report.realStreams.length > 0) {
    const waves = report.realStreams.find((run) => run.strategy !== 'eager')?.strategy ?? 'greedy';
    blocks.push(
      {
        kind: 'paragraph',
        text: `Real streamed turns (seed ${meta.seeds[0]}): ${sizes} written by a timed source in real time (the token model's arrivals × ${meta.streamLatencyScale}), real filesystem tools (latency × ${meta.streamLatencyScale}): \`eager\` feeds the source to \`dispatchStream\`; ${waves} reads the whole stream, then dispatches its waves. Median of ${meta.realRepeats} run(s), summed per workload.`,
      },
      table({
        runs: report.realStreams,
        name: (run) => run.strategy,
        headers: [
          `${waves} (wait-then-waves)`,
          'eager (dispatchStream)',
          `eager ÷ ${waves}`,
          'simulated',
        ],
        cells: (of) => [
          formatDuration(of(waves)?.wallMs ?? null),
          formatDuration(of('eager')?.wallMs ?? null),
          ratio(of('eager')?.wallMs, of(waves)?.wallMs),
          ratio(of('eager')?.simulatedMs, of(waves)?.simulatedMs),
        ],
      }),
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
  const [start, end] = [readme.indexOf(HEADLINE_START), readme.indexOf(HEADLINE_END)];
  if (start === -1 || end === -1 || end < start) {
    throw new BenchError({
      code: 'invalid_options',
      message: `Expected the README to hold \`${HEADLINE_START}\` followed by \`${HEADLINE_END}\``,
    });
  }
  return `${readme.slice(0, start + HEADLINE_START.length)}\n\n${headline.trim()}\n\n${readme.slice(end)}`;
}
