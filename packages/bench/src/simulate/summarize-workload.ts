import type {
  BatchFigures,
  BatchResult,
  PlannerResult,
  VersusReference,
  WorkloadFigures,
} from '../report/bench-report.js';
import type { BenchWorkload } from '../workloads/bench-batch.js';

/** Options of {@link summarizeWorkload}. */
export interface SummarizeWorkloadOptions {
  readonly workload: BenchWorkload;
  /** Figures of each batch, in the workload's order. */
  readonly perBatch: readonly BatchFigures[];
  /** Planner names, in report order. */
  readonly planners: readonly string[];
  /** The planner the others are compared with, when there is one. */
  readonly reference?: string;
}

/**
 * Sums and averages the per-batch figures of one workload into one {@link PlannerResult} per
 * planner (pure). Ratios are of sums, so long batches weigh more; `worstRatio` shows the worst
 * single batch.
 *
 * @example summarizeWorkload({ workload, perBatch, planners: ['greedy', 'ordered'], reference: 'greedy' });
 * @see comparePlanners
 */
export function summarizeWorkload(options: SummarizeWorkloadOptions): WorkloadFigures {
  const { workload, perBatch, reference } = options;
  const lowerBoundMs = sum(perBatch.map((batch) => batch.lowerBoundMs));
  const resultsOf = (name: string): BatchResult[] =>
    perBatch.map((batch) => {
      const found = batch.results.find((result) => result.planner === name);
      if (found === undefined) throw new RangeError(`No result of planner \`${name}\` in a batch`);
      return found;
    });
  const referenceResults = reference === undefined ? undefined : resultsOf(reference);
  const results = options.planners.map((name): PlannerResult => {
    const own = resultsOf(name);
    const makespanMs = sum(own.map((result) => result.makespanMs));
    const proven = own.filter((result) => result.proven !== null);
    return {
      planner: name,
      waves: sum(own.map((result) => result.waves)),
      makespanMs,
      lowerBoundMs,
      ratio: ratioOf(makespanMs, lowerBoundMs),
      worstRatio: Math.max(
        0,
        ...own.map((result, b) => ratioOf(result.makespanMs, perBatch[b]!.lowerBoundMs)),
      ),
      planMs: own.length === 0 ? 0 : sum(own.map((result) => result.planMs)) / own.length,
      proven:
        proven.length === 0
          ? null
          : proven.filter((result) => result.proven === true).length / own.length,
      invalidPlans: own.filter((result) => result.violations > 0).length,
      versus:
        referenceResults === undefined || name === reference
          ? null
          : versus(own, referenceResults, reference!),
      aboveMinimalWaves:
        workload.kind === 'seed-model'
          ? own.filter((result, b) => result.waves > (perBatch[b]!.minimalWaves ?? 0)).length
          : null,
    };
  });
  return {
    name: workload.name,
    description: workload.description,
    kind: workload.kind,
    batches: perBatch.length,
    calls: sum(perBatch.map((batch) => batch.size)),
    results,
    perBatch,
  };
}

function versus(
  own: readonly BatchResult[],
  theirs: readonly BatchResult[],
  reference: string,
): VersusReference {
  let faster = 0;
  let slower = 0;
  let bestGain = 0;
  own.forEach((result, b) => {
    const other = theirs[b]!.makespanMs;
    const tolerance = 1e-9 * Math.max(1, other);
    if (result.makespanMs < other - tolerance) {
      faster++;
      bestGain = Math.max(bestGain, (other - result.makespanMs) / other);
    } else if (result.makespanMs > other + tolerance) {
      slower++;
    }
  });
  return {
    reference,
    ratio: ratioOf(
      sum(own.map((result) => result.makespanMs)),
      sum(theirs.map((result) => result.makespanMs)),
    ),
    faster,
    slower,
    bestGain,
  };
}

function ratioOf(value: number, base: number): number {
  return base === 0 ? (value === 0 ? 1 : Number.POSITIVE_INFINITY) : value / base;
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
