import { TOOL_LATENCY } from '../workloads/tool-latency.js';
import type { BenchReport, StrategySummary, WorkloadFigures } from './bench-report.js';
import { formatDuration, formatPercent, formatRatio } from './format-figures.js';
import { headlineBlocks, summaryCells } from './headline-markdown.js';
import { blocksToMarkdown, type ReportBlock } from './report-blocks.js';

/**
 * `report.md` (pure): the headline ({@link headlineMarkdown}), one table per workload, the
 * planning time against batch size, the real runs, and how the figures were made.
 *
 * @example await writeFile('report.md', renderMarkdown(report));
 * @see renderHtml
 */
export function renderMarkdown(report: BenchReport): string {
  return `${blocksToMarkdown(reportBlocks(report))}\n`;
}

/** Everything in the report as blocks: what {@link renderMarkdown} writes and `renderHtml` renders below its charts. */
export function reportBlocks(report: BenchReport): ReportBlock[] {
  const { meta } = report;
  const sections: ReportBlock[] = [
    { kind: 'heading', level: 1, text: 'toolwaves strategy benchmark' },
    {
      kind: 'paragraph',
      text: `Generated ${meta.generatedAt} on ${meta.environment}${meta.quick ? ' (quick run)' : ''}. Strategies compared:`,
    },
    {
      kind: 'list',
      items: meta.strategies.map(
        (strategy) =>
          `**${strategy.name}**${strategy.clairvoyant ? ' (clairvoyant)' : ''} — ${strategy.description}`,
      ),
    },
    { kind: 'heading', level: 2, text: 'Headline' },
    ...headlineBlocks(report),
    { kind: 'heading', level: 2, text: 'Workloads' },
    {
      kind: 'paragraph',
      text: `Per strategy, over the workload's batches and the ${meta.seeds.length} seed(s) (median [range]): summed turn time ÷ ${meta.reference ?? 'the reference'} and ÷ the lower bound, batch and streamed; mean streamed turn and tool time after the stream; conflicting pairs that overlapped (lost updates); turns breaking the rules (wave plans: \`verifyPlan\`; other schedules: \`verifySchedule\`); share of plans proven optimal; seed-model batches above the minimal wave count. And how far the health record's estimates were from the sampled durations.`,
    },
  ];
  for (const workload of report.workloads) sections.push(...workloadSection(workload));
  if (report.scaling.length > 0) sections.push(...scalingSection(report));
  if (report.realRuns.length > 0) sections.push(...realRunSection(report));
  sections.push(...methodSection(report));
  return sections;
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
      batch.aboveMinimalWaves === null ? '–' : String(batch.aboveMinimalWaves),
    ];
  };
  const { estimates } = workload;
  return [
    { kind: 'heading', level: 3, text: workload.name },
    {
      kind: 'paragraph',
      text: `${workload.description} ${workload.batches} batch${workload.batches === 1 ? '' : 'es'} and ${workload.calls} calls per seed, sizes ${sizesOf(workload)}. Estimates off by ${formatPercent(estimates.medianError)} at the median, ${formatPercent(estimates.p90Error)} at p90 (${estimates.unseen} of ${estimates.calls} calls of a tool not seen yet).`,
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
        'above min. waves',
      ],
      rows: workload.batch.map(row),
    },
  ];
}

function sizesOf(workload: WorkloadFigures): string {
  const sizes = workload.perBatch.map((batch) => batch.size);
  return `${Math.min(...sizes)}–${Math.max(...sizes)}`;
}

function scalingSection(report: BenchReport): ReportBlock[] {
  const sizes = [...new Set(report.scaling.map((point) => point.size))].sort((a, b) => a - b);
  const planners = report.meta.planners.filter((planner) =>
    report.scaling.some((point) => point.planner === planner),
  );
  const rows = sizes.map((size) => [
    String(size),
    ...planners.map((planner) => {
      const point = report.scaling.find(
        (candidate) => candidate.size === size && candidate.planner === planner,
      );
      return point?.planMs === null || point === undefined
        ? 'skipped'
        : formatDuration(point.planMs);
    }),
  ]);
  const skipped = report.scaling.filter((point) => point.skipped !== undefined);
  const notes = [...new Set(skipped.map((point) => `${point.planner}: ${point.skipped}`))];
  return [
    { kind: 'heading', level: 2, text: 'Planning time against batch size' },
    {
      kind: 'paragraph',
      text: 'One batch of the `mixed` workload per size, planning time per batch (mean of repetitions for fast planners).',
    },
    { kind: 'table', headers: ['calls', ...planners], rows },
    ...(notes.length === 0
      ? []
      : [{ kind: 'paragraph' as const, text: `Skipped beyond: ${notes.join('; ')}.` }]),
  ];
}

function realRunSection(report: BenchReport): ReportBlock[] {
  const rows = report.realRuns.map((run) => [
    run.workload,
    run.planner,
    String(run.batches),
    String(run.calls),
    formatDuration(run.wallMs),
    formatDuration(run.simulatedMs),
    formatRatio(run.simulatedMs === 0 ? null : run.wallMs / run.simulatedMs),
    formatPercent(run.spread),
    String(run.errors),
  ]);
  return [
    { kind: 'heading', level: 2, text: 'Real runs' },
    {
      kind: 'paragraph',
      text: `Each batch dispatched by the executor's \`Dispatcher\` (parallel mode, \`maxConcurrency\` ${report.meta.maxConcurrency}) with the real filesystem tools on a fresh generated workspace in a temporary folder (the memory-backed \`/dev/shm\` when there is one, so disk flushes stay out of the figures), each call delayed by its sampled duration × ${report.meta.latencyScale} (\`withLatency\`); planners run side by side, batch by batch, in one process. "simulated" is the simulated makespan × the same scale: the wall-clock with no overhead at all. Plans are made before the clock starts (planning time, unscaled, is in the workload tables), so the wall-clock is the execution of the plan. Each batch runs ${report.meta.realRepeats} time(s) per planner and the median counts; "spread" is how much those runs disagree ((slowest − fastest) ÷ median, averaged over batches): wall-clock differences between planners smaller than that are noise of the machine, the simulated figures are exact.`,
    },
    {
      kind: 'table',
      headers: [
        'workload',
        'planner',
        'batches',
        'calls',
        'wall-clock',
        'simulated',
        'wall ÷ simulated',
        'error results',
      ],
      rows,
      numericFrom: 2,
    },
  ];
}

function methodSection(report: BenchReport): ReportBlock[] {
  const latency = Object.entries(TOOL_LATENCY).map(([tool, model]) => [
    tool,
    `${model.medianMs} ms`,
    String(model.sigma),
  ]);
  return [
    { kind: 'heading', level: 2, text: 'Method' },
    {
      kind: 'list',
      items: [
        `Batches: for each of the seeds ${report.meta.seeds.join(', ')}, every workload generates ${report.meta.repeats} batch(es) per size (${report.meta.sizes.join(', ')}; the worked example has its 6 calls), from seeded streams (mulberry32), so every run sees the same batches. Tool workloads get their plan nodes from the real tool registry's \`toPlanNodes\` (the real declarations).`,
        'Durations: log-normal around the medians below (sigma = spread of the logarithm; long tails). The sampled durations are what the simulation runs; no strategy sees them, except the one marked clairvoyant.',
        `Estimates: what a dispatcher's health record holds — the executor's \`ToolHealth\` (a moving average per tool, alpha 0.2), warmed up on ${report.meta.warmupTurns} turns of the workload, then on each earlier measured turn of the seed. Strategies see them as \`estimateMs\`.`,
        `Streamed turns: the model writes the calls one after another, each \`12 + JSON length of its arguments ÷ 4\` tokens at ${report.meta.tokensPerSecond} tokens/s; a call arrives when written. Turn time runs from the first tool-call token to the last result.`,
        "Simulation: waves one after another, list scheduling inside a wave under the cap (the planner package's `makespan`); eager runs through the planner's `simulateEager`; peers start each call once it is ready (arrived, its dependencies ended) and a slot is free, lowest index first. Lower bound: the planner package's `lowerBound` (serial work of unsafe calls plus the longest conflict chain or the safe work ÷ cap); streamed, the same function given the arrival times (`arrivalMs`): no call starts before it was written.",
        '`optimal` searches on a work budget (search nodes), not a clock, so the same seed gives the same plans on any machine. Decision times: `performance.now()` around `execute()`, first seed, batch mode.',
      ],
    },
    { kind: 'table', headers: ['tool', 'median', 'sigma'], rows: latency },
  ];
}
