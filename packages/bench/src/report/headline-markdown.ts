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
 * workload, the ratios to greedy; real-run
 * wall-clock ratios; and the command that reproduces it. The same text goes at the top of
 * `report.md`, is printed by `pnpm bench`, and is what `--update-readme` puts in the package
 * README.
 *
 * @example console.log(headlineMarkdown(report));
 * @see renderMarkdown
 */
export function headlineMarkdown(report: BenchReport): string {
  return blocksToMarkdown(headlineBlocks(report));
}

/**
 * The headline as report blocks (pure): what {@link headlineMarkdown} prints and `renderHtml`
 * draws.
 *
 * @example blocksToHtml(headlineBlocks(report));
 */
export function headlineBlocks(report: BenchReport): ReportBlock[] {
  const { meta, overall } = report;
  const reference = meta.reference ?? 'the reference';
  const seeds = meta.seeds;
  const seedText =
    seeds.length === 1 ? `seed ${seeds[0]}` : `seeds ${seeds[0]}–${seeds[seeds.length - 1]}`;
  const clairvoyant = meta.strategies.filter((strategy) => strategy.clairvoyant);
  const rows = meta.strategies.map(({ name }) => {
    const batch = find(overall.batch, name);
    const stream = find(overall.stream, name);
    return [
      clairvoyant.some((strategy) => strategy.name === name) ? `${name} †` : name,
      formatSpread(batch?.versusGreedy ?? null, formatRatio),
      formatSpread(batch?.versusBound ?? null, formatRatio),
      formatSpread(stream?.versusGreedy ?? null, formatRatio),
      formatSpread(stream?.versusBound ?? null, formatRatio),
      formatSpread(stream?.turnMs ?? null, formatDuration),
      formatSpread(stream?.afterStreamMs ?? null, formatDuration),
      overlaps(batch, stream),
    ];
  });
  const blocks: ReportBlock[] = [
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
    perWorkloadTable(report, 'batch'),
    perWorkloadTable(report, 'stream'),
    ...realRunBlocks(report),
    ...realStreamBlocks(report),
    { kind: 'paragraph', text: `Reproduce: \`${meta.command}\`` },
  ];
  return blocks;
}

function perWorkloadTable(report: BenchReport, mode: TurnMode): ReportBlock {
  const { meta, workloads } = report;
  return {
    kind: 'table',
    headers: [
      mode === 'batch' ? 'batch' : 'streamed',
      ...workloads.map((workload) => workload.name),
    ],
    rows: meta.strategies
      .filter(({ name }) => name !== meta.reference)
      .map(({ name }) => [
        name,
        ...workloads.map((workload) =>
          formatSpread(find(workload[mode], name)?.versusGreedy ?? null, formatRatio),
        ),
      ]),
  };
}

function overlaps(batch: StrategySummary | undefined, stream: StrategySummary | undefined): string {
  const text = (summary: StrategySummary | undefined): string =>
    summary === undefined ? '–' : `${summary.conflictingOverlaps} (${summary.lostUpdates})`;
  const [a, b] = [text(batch), text(stream)];
  return a === b ? a : `${a} batch, ${b} streamed`;
}

function find(
  summaries: readonly StrategySummary[],
  strategy: string,
): StrategySummary | undefined {
  return summaries.find((summary) => summary.strategy === strategy);
}

function realRunBlocks(report: BenchReport): ReportBlock[] {
  const { realRuns, meta } = report;
  if (realRuns.length === 0) return [];
  const reference = meta.reference ?? meta.planners[0]!;
  const workloads = [...new Set(realRuns.map((run) => run.workload))];
  const runOf = (workload: string, planner: string): RealRunFigures | undefined =>
    realRuns.find((run) => run.workload === workload && run.planner === planner);
  const others = meta.planners.filter((planner) => planner !== reference);
  const rows = workloads.map((workload) => {
    const base = runOf(workload, reference);
    const own = realRuns.filter((run) => run.workload === workload);
    return [
      workload,
      formatDuration(base?.wallMs ?? null),
      ...others.map((planner) => {
        const run = runOf(workload, planner);
        return run === undefined || base === undefined || base.wallMs === 0
          ? '–'
          : formatRatio(run.wallMs / base.wallMs);
      }),
      formatPercent(Math.max(...own.map((run) => run.spread))),
      String(own.reduce((sum, run) => sum + run.errors, 0)),
    ];
  });
  return [
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
      rows,
    },
  ];
}

function realStreamBlocks(report: BenchReport): ReportBlock[] {
  const { realStreams, meta } = report;
  if (realStreams.length === 0) return [];
  const waves = realStreams.find((run) => run.strategy !== 'eager')?.strategy ?? 'greedy';
  const workloads = [...new Set(realStreams.map((run) => run.workload))];
  const runOf = (workload: string, strategy: string): RealStreamFigures | undefined =>
    realStreams.find((run) => run.workload === workload && run.strategy === strategy);
  const ratio = (a: number | undefined, b: number | undefined): string =>
    a === undefined || b === undefined || b === 0 ? '–' : formatRatio(a / b);
  const rows = workloads.map((workload) => {
    const base = runOf(workload, waves);
    const eager = runOf(workload, 'eager');
    const own = realStreams.filter((run) => run.workload === workload);
    return [
      workload,
      formatDuration(base?.wallMs ?? null),
      formatDuration(eager?.wallMs ?? null),
      ratio(eager?.wallMs, base?.wallMs),
      ratio(eager?.simulatedMs, base?.simulatedMs),
      formatPercent(Math.max(...own.map((run) => run.spread))),
      String(own.reduce((sum, run) => sum + run.errors, 0)),
    ];
  });
  return [
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
      rows,
    },
  ];
}
