import type { BenchReport, Spread, StrategySummary, TurnMode } from './bench-report.js';
import { formatChange, formatDuration, formatPercent } from './format-figures.js';

/** Below this relative difference, on every seed, two strategies count as equal. */
const EQUAL = 0.005;

/** What the seeds say about a ratio to the reference. */
export type Verdict = 'faster' | 'slower' | 'equal' | 'unclear';

/**
 * What the seeds support (pure): `faster` when the ratio is below 1 on every seed, `slower`
 * when above on every seed, `equal` when within 0.5 % on every seed, else `unclear` — the
 * seeds disagree, and no claim is made.
 *
 * @example verdictOf({ median: 0.97, min: 0.95, max: 0.99, perSeed: [0.95, 0.97, 0.99] }); // 'faster'
 */
export function verdictOf(spread: Spread): Verdict {
  if (spread.max - 1 < EQUAL && 1 - spread.min < EQUAL) return 'equal';
  if (spread.max < 1) return 'faster';
  if (spread.min > 1) return 'slower';
  return 'unclear';
}

/**
 * The findings of a run in words (pure), one bullet each (without the `- `), so a regenerated
 * README states them with the new figures: for every strategy and mode, where it is faster or
 * slower than the reference and by how much (median change, range across seeds), where equal,
 * and where the seeds disagree; the estimates' error; conflicting overlaps; broken rules; the
 * seed-model wave check; proofs; planning time.
 *
 * @example headlineFindings(report)[0]; // '**optimal** vs greedy, batch: faster on refactor (−4.1 % [−5.0 … −3.2 %]); …'
 * @see headlineMarkdown
 */
export function headlineFindings(report: BenchReport): string[] {
  const { meta, workloads, overall } = report;
  const lines: string[] = [];
  const reference = meta.reference;
  if (reference !== null) {
    for (const { name } of meta.strategies) {
      if (name === reference) continue;
      for (const mode of ['batch', 'stream'] as const) {
        lines.push(comparison(report, name, mode, reference));
      }
    }
  }
  const seeds = meta.seeds.length;
  const { estimates } = overall;
  lines.push(
    `Estimates (the health record after ${meta.warmupTurns} warm-up turns and the earlier turns of each seed) are off by ${formatPercent(estimates.medianError)} at the median and ${formatPercent(estimates.p90Error)} at the 90th percentile of ${estimates.calls} calls (${estimates.unseen} of a tool not seen yet). Planners plan on them; only \`optimal-clairvoyant\` sees the sampled durations.`,
  );
  const unsafe = [...overall.batch, ...overall.stream].filter(
    (summary) => summary.conflictingOverlaps > 0,
  );
  for (const mode of ['batch', 'stream'] as const) {
    const offenders = overall[mode].filter((summary) => summary.conflictingOverlaps > 0);
    const safe = overall[mode].length - offenders.length;
    for (const summary of offenders) {
      const where = workloads
        .map((workload) => ({
          name: workload.name,
          pairs: workload[mode].find((entry) => entry.strategy === summary.strategy)!
            .conflictingOverlaps,
        }))
        .filter((entry) => entry.pairs > 0)
        .map((entry) => `${entry.name} ${entry.pairs}`)
        .join(', ');
      lines.push(
        `**${summary.strategy}** (${mode === 'batch' ? 'batch' : 'streamed'}) ran ${summary.conflictingOverlaps} conflicting pairs of calls at the same time over ${seeds} seed(s), ${summary.lostUpdates} of them two writes of one file (a lost update each): ${where}. The other ${safe} strategies: none.`,
      );
    }
  }
  if (unsafe.length === 0) {
    lines.push('No strategy ran two conflicting calls at the same time.');
  }
  const invalid = meta.strategies.flatMap(({ name }) => {
    const count = (['batch', 'stream'] as const).reduce(
      (sum, mode) =>
        sum + (overall[mode].find((summary) => summary.strategy === name)?.invalidPlans ?? 0),
      0,
    );
    return count === 0 ? [] : [`${name} ${count}`];
  });
  lines.push(
    `Turns breaking the rules (wave plans: \`verifyPlan\`, rules 1–4; other schedules: \`verifySchedule\`, rules 1–5, the cap, arrivals), batch and streamed: ${invalid.length === 0 ? 'none' : invalid.join(', ')}.`,
  );
  const seedModel = workloads.filter((workload) => workload.kind === 'seed-model');
  if (seedModel.length > 0) {
    const above = meta.strategies.flatMap(({ name }) => {
      const counts = seedModel.map(
        (workload) =>
          workload.batch.find((summary) => summary.strategy === name)?.aboveMinimalWaves ?? null,
      );
      if (counts.some((count) => count === null)) return [];
      return [`${name} ${counts.reduce((sum: number, count) => sum + count!, 0)}`];
    });
    const batches = seedModel.reduce((sum, workload) => sum + workload.batches, 0) * seeds;
    lines.push(
      `Seed model, wave count above the minimum (unsafe calls + most safe calls on one key, or 1) on ${batches} batches: ${above.join(', ')}.`,
    );
  }
  for (const summary of overall.batch) {
    if (summary.proven === null) continue;
    lines.push(
      `${summary.strategy}: plans proven optimal — ${workloads
        .map(
          (workload) =>
            `${workload.name} ${formatPercent(workload.batch.find((entry) => entry.strategy === summary.strategy)?.proven ?? null)}`,
        )
        .join(', ')}.`,
    );
  }
  if (report.planning.length > 0) {
    lines.push(
      `Mean time to decide a batch: ${report.planning
        .map((entry) => `${entry.strategy} ${formatDuration(entry.meanMs)}`)
        .join(', ')}.`,
    );
  }
  return lines;
}

function comparison(
  report: BenchReport,
  strategy: string,
  mode: TurnMode,
  reference: string,
): string {
  const groups: Record<Verdict, string[]> = { faster: [], slower: [], equal: [], unclear: [] };
  for (const workload of report.workloads) {
    const spread = find(workload[mode], strategy)?.versusGreedy;
    if (spread === undefined || spread === null) continue;
    const verdict = verdictOf(spread);
    groups[verdict].push(
      verdict === 'equal' ? workload.name : `${workload.name} (${changeOf(spread)})`,
    );
  }
  const all = find(report.overall[mode], strategy)?.versusGreedy;
  const parts: string[] = [];
  if (all !== undefined && all !== null) {
    const verdict = verdictOf(all);
    parts.push(
      verdict === 'equal'
        ? `over all workloads equal within 0.5 % (${changeOf(all)})`
        : `over all workloads ${changeOf(all)}${verdict === 'unclear' ? ', not beyond the seeds’ spread' : ''}`,
    );
  }
  if (groups.faster.length > 0) parts.push(`faster on ${groups.faster.join(', ')}`);
  if (groups.slower.length > 0) parts.push(`slower on ${groups.slower.join(', ')}`);
  if (groups.equal.length > 0) parts.push(`equal (within 0.5 %) on ${groups.equal.join(', ')}`);
  if (groups.unclear.length > 0) {
    parts.push(`seeds disagree on ${groups.unclear.join(', ')}`);
  }
  const label = mode === 'batch' ? 'batch' : 'streamed';
  return `**${strategy}** vs ${reference}, ${label}: ${parts.join('; ')}.`;
}

function find(
  summaries: readonly StrategySummary[],
  strategy: string,
): StrategySummary | undefined {
  return summaries.find((summary) => summary.strategy === strategy);
}

/** The median change with its range across seeds: `−4.1 % [−5.0 … −3.2 %]`. */
function changeOf(spread: Spread): string {
  const median = formatChange(spread.median);
  const min = formatChange(spread.min);
  const max = formatChange(spread.max);
  return min === max ? median : `${median} [${min.replace(' %', '')} … ${max}]`;
}
