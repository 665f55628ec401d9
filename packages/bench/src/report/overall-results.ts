import type { PlannerResult, WorkloadFigures } from './bench-report.js';

/** One planner's figures summed over several workloads. */
export interface OverallResult {
  readonly planner: string;
  readonly makespanMs: number;
  readonly lowerBoundMs: number;
  /** Summed makespan ÷ summed lower bound. */
  readonly ratio: number;
  /** Summed makespan ÷ the reference's summed makespan; `null` for the reference or without one. */
  readonly versusRatio: number | null;
  /** Batches faster / slower than the reference, over all workloads. */
  readonly faster: number;
  readonly slower: number;
  readonly invalidPlans: number;
}

/**
 * Each planner's figures over all the given workloads (pure): sums of makespans and lower
 * bounds, their ratio, and the ratio to the reference planner (the one whose `versus` is
 * `null` while others' is not).
 *
 * @example overallResults(report.workloads).find((result) => result.planner === 'ordered')?.versusRatio;
 */
export function overallResults(workloads: readonly WorkloadFigures[]): OverallResult[] {
  const planners = workloads[0]?.results.map((result) => result.planner) ?? [];
  const reference = workloads[0]?.results.find((result) => result.versus !== null)?.versus
    ?.reference;
  const of = (name: string): PlannerResult[] =>
    workloads.flatMap((workload) => workload.results.filter((result) => result.planner === name));
  const total = (results: readonly PlannerResult[], pick: (result: PlannerResult) => number) =>
    results.reduce((sum, result) => sum + pick(result), 0);
  const referenceMakespan =
    reference === undefined ? undefined : total(of(reference), (result) => result.makespanMs);
  return planners.map((planner) => {
    const results = of(planner);
    const makespanMs = total(results, (result) => result.makespanMs);
    const lowerBoundMs = total(results, (result) => result.lowerBoundMs);
    return {
      planner,
      makespanMs,
      lowerBoundMs,
      ratio: lowerBoundMs === 0 ? 1 : makespanMs / lowerBoundMs,
      versusRatio:
        referenceMakespan === undefined || planner === reference || referenceMakespan === 0
          ? null
          : makespanMs / referenceMakespan,
      faster: total(results, (result) => result.versus?.faster ?? 0),
      slower: total(results, (result) => result.versus?.slower ?? 0),
      invalidPlans: total(results, (result) => result.invalidPlans),
    };
  });
}
