import type { BenchReport, RealRunFigures } from './bench-report.js';
import { blocksToMarkdown } from './blocks-to-markdown.js';
import { formatDuration, formatPercent, formatRatio } from './format-figures.js';
import { headlineFindings } from './headline-findings.js';
import { overallResults } from './overall-results.js';
import type { ReportBlock } from './report-block.js';

/**
 * The headline of a run, in markdown (pure): per workload, each planner's makespan ÷ lower bound
 * and ÷ the reference (greedy); the findings in words ({@link headlineFindings}); the
 * seed-model wave-count check; rule violations; how often plans were proven optimal; real-run
 * wall-clock ratios; and the command that reproduces it.
 * The same text goes at the top of `report.md`, is printed by `pnpm bench`, and is what
 * `--update-readme` puts in the package README.
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
  const { meta, workloads } = report;
  const planners = meta.planners;
  const reference = meta.reference;
  const others = planners.filter((planner) => planner !== reference);
  const headers = [
    'workload',
    'batches (calls)',
    ...planners.map((planner) => `${planner} ÷ LB`),
    ...(reference === null ? [] : others.map((planner) => `${planner} ÷ ${reference}`)),
  ];
  const row = (
    name: string,
    batches: string,
    results: readonly { planner: string; ratio: number; versusRatio: number | null }[],
  ): string[] => [
    name,
    batches,
    ...planners.map((planner) =>
      formatRatio(results.find((result) => result.planner === planner)?.ratio ?? null),
    ),
    ...(reference === null
      ? []
      : others.map((planner) =>
          formatRatio(results.find((result) => result.planner === planner)?.versusRatio ?? null),
        )),
  ];
  const rows = workloads.map((workload) =>
    row(
      workload.name,
      `${workload.batches} (${workload.calls})`,
      workload.results.map((result) => ({
        planner: result.planner,
        ratio: result.ratio,
        versusRatio: result.versus?.ratio ?? null,
      })),
    ),
  );
  const batches = workloads.reduce((sum, workload) => sum + workload.batches, 0);
  const calls = workloads.reduce((sum, workload) => sum + workload.calls, 0);
  rows.push(row('**all**', `${batches} (${calls})`, overallResults(workloads)));

  const blocks: ReportBlock[] = [
    {
      kind: 'paragraph',
      text: `Simulated makespan ÷ lower bound (LB; 1.00 = no plan can do better) and ÷ ${reference ?? 'the reference'}, summed over each workload's batches; \`maxConcurrency\` ${meta.maxConcurrency}, seed ${meta.seed}.`,
    },
    { kind: 'table', headers, rows },
    {
      kind: 'list',
      items: [...headlineFindings(report), ...checks(report)].map((line) => line.slice(2)),
    },
    ...realRunBlocks(report),
    { kind: 'paragraph', text: `Reproduce: \`${meta.command}\`` },
  ];
  return blocks;
}

function checks(report: BenchReport): string[] {
  const { workloads } = report;
  const seedModel = workloads.filter((workload) => workload.kind === 'seed-model');
  const lines: string[] = [];
  if (seedModel.length > 0) {
    const batches = seedModel.reduce((sum, workload) => sum + workload.batches, 0);
    const above = report.meta.planners.map((planner) => {
      const count = seedModel.reduce(
        (sum, workload) =>
          sum +
          (workload.results.find((result) => result.planner === planner)?.aboveMinimalWaves ?? 0),
        0,
      );
      return `${planner} ${count}`;
    });
    lines.push(
      `- Seed model, wave count above the minimum (unsafe calls + most safe calls on one key, or 1) on ${batches} batches: ${above.join(', ')}.`,
    );
  }
  const invalid = overallResults(workloads).map(
    (result) => `${result.planner} ${result.invalidPlans}`,
  );
  lines.push(`- Plans breaking rules 1–4 (\`verifyPlan\`): ${invalid.join(', ')}.`);
  for (const planner of report.meta.planners) {
    const results = workloads.flatMap((workload) =>
      workload.results.filter((result) => result.planner === planner && result.proven !== null),
    );
    if (results.length === 0) continue;
    const perWorkload = workloads
      .map((workload) => {
        const result = workload.results.find((candidate) => candidate.planner === planner);
        return `${workload.name} ${formatPercent(result?.proven ?? null)}`;
      })
      .join(', ');
    lines.push(`- ${planner}: plans proven optimal — ${perWorkload}.`);
  }
  return lines;
}

function realRunBlocks(report: BenchReport): ReportBlock[] {
  const { realRuns, meta } = report;
  if (realRuns.length === 0) return [];
  const reference = meta.reference ?? meta.planners[0]!;
  const workloads = [...new Set(realRuns.map((run) => run.workload))];
  const find = (workload: string, planner: string): RealRunFigures | undefined =>
    realRuns.find((run) => run.workload === workload && run.planner === planner);
  const others = meta.planners.filter((planner) => planner !== reference);
  const rows = workloads.map((workload) => {
    const base = find(workload, reference);
    return [
      workload,
      formatDuration(base?.wallMs ?? null),
      ...others.map((planner) => {
        const run = find(workload, planner);
        return run === undefined || base === undefined || base.wallMs === 0
          ? '–'
          : formatRatio(run.wallMs / base.wallMs);
      }),
      formatPercent(
        Math.max(...realRuns.filter((run) => run.workload === workload).map((run) => run.spread)),
      ),
      String(
        realRuns
          .filter((run) => run.workload === workload)
          .reduce((sum, run) => sum + run.errors, 0),
      ),
    ];
  });
  return [
    {
      kind: 'paragraph',
      text: `Real runs: the batches of ${meta.realSizes.join(', ')} calls dispatched with the real filesystem tools on a generated workspace, latency injected at ${meta.latencyScale} × the sampled durations, median of ${meta.realRepeats} run(s); wall-clock summed per workload. Differences below the spread are noise.`,
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
