import type { BenchReport } from './bench-report.js';
import { formatDuration, formatRatio } from './format-figures.js';
import { overallResults } from './overall-results.js';

/** Below this relative difference two makespans count as equal in the findings. */
const EQUAL = 0.005;

/**
 * The findings of a run in words (pure), one markdown bullet each, so that a regenerated
 * README states them with the new figures:
 * - for every planner against the reference (greedy): the makespan difference over all
 *   workloads, the workload where it is largest, the workloads where it is nil, and the
 *   batches where the planner is faster or slower;
 * - how far every planner is from the lower bound over all workloads;
 * - the mean planning time per batch of every planner.
 *
 * @example headlineFindings(report); // ['- **optimal** vs greedy: makespan −3.0 % overall; …', …]
 * @see headlineMarkdown
 */
export function headlineFindings(report: BenchReport): string[] {
  const { workloads, meta } = report;
  const overall = overallResults(workloads);
  const lines: string[] = [];
  const reference = meta.reference;
  if (reference !== null) {
    for (const result of overall) {
      if (result.planner === reference || result.versusRatio === null) continue;
      const per = workloads.flatMap((workload) => {
        const ratio = workload.results.find((candidate) => candidate.planner === result.planner)
          ?.versus?.ratio;
        return ratio === undefined ? [] : [{ workload: workload.name, ratio }];
      });
      const largest = per.reduce<(typeof per)[number] | undefined>(
        (best, entry) =>
          best === undefined || Math.abs(entry.ratio - 1) > Math.abs(best.ratio - 1) ? entry : best,
        undefined,
      );
      const equal = per.filter((entry) => Math.abs(entry.ratio - 1) < EQUAL).map((e) => e.workload);
      const parts = [`makespan ${change(result.versusRatio)} overall`];
      if (largest !== undefined && Math.abs(largest.ratio - 1) >= EQUAL) {
        parts.push(`largest on ${largest.workload} (${change(largest.ratio)})`);
      }
      if (equal.length > 0) parts.push(`equal on ${equal.join(', ')}`);
      parts.push(`faster on ${result.faster} batches, slower on ${result.slower}`);
      lines.push(`- **${result.planner}** vs ${reference}: ${parts.join('; ')}.`);
    }
  }
  lines.push(
    `- Distance from the lower bound over all workloads (makespan ÷ LB): ${overall
      .map((result) => `${result.planner} ${formatRatio(result.ratio)}`)
      .join(', ')}.`,
  );
  const planning = meta.planners.map((planner) => {
    const results = workloads.flatMap((workload) =>
      workload.results.filter((result) => result.planner === planner),
    );
    const batches = workloads.reduce((sum, workload) => sum + workload.batches, 0);
    const total = results.reduce(
      (sum, result, w) => sum + result.planMs * workloads[w]!.batches,
      0,
    );
    return `${planner} ${formatDuration(batches === 0 ? null : total / batches)}`;
  });
  lines.push(`- Mean planning time per batch: ${planning.join(', ')}.`);
  return lines;
}

/** A ratio as a signed percentage change: 0.97 → "−3.0 %", 1.07 → "+7.0 %". */
function change(ratio: number): string {
  const percent = (ratio - 1) * 100;
  return `${percent < 0 ? '−' : '+'}${Math.abs(percent).toFixed(1)} %`;
}
