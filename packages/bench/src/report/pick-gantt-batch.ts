import type { BatchFigures, WorkloadFigures } from './bench-report.js';

/** Options of {@link pickGanttBatch}. */
export interface PickGanttBatchOptions {
  readonly workloads: readonly WorkloadFigures[];
  /** The planner the others are compared with (e.g. `greedy`). */
  readonly reference?: string;
  /** Smallest and largest batch worth drawing (default 6 and 16 calls). */
  readonly minSize?: number;
  readonly maxSize?: number;
}

/** The batch to draw, and why it was chosen. */
export interface GanttChoice {
  readonly workload: string;
  readonly batch: number;
  readonly why: string;
}

/**
 * Chooses the batch the report draws as a Gantt chart (pure): among tool-workload batches of a
 * readable size (else seed-model ones, else any), the one where the reference planner is
 * furthest above the best strategy that keeps the rules (batch mode), as a share of the lower
 * bound; when no planner beats the
 * reference anywhere, the one where the planners that pack calls together (fewer waves than
 * calls) differ most. `undefined` when there is no batch at all.
 *
 * @example pickGanttBatch({ workloads: figures, reference: 'greedy' });
 */
export function pickGanttBatch(options: PickGanttBatchOptions): GanttChoice | undefined {
  const minSize = options.minSize ?? 6;
  const maxSize = options.maxSize ?? 16;
  const all = options.workloads.flatMap((workload) =>
    workload.perBatch.map((batch, position) => ({ workload, batch, position })),
  );
  const readable = all.filter(({ batch }) => batch.size >= minSize && batch.size <= maxSize);
  const tiers = [
    readable.filter(({ workload }) => workload.kind === 'tools'),
    readable.filter(({ workload }) => workload.kind === 'seed-model'),
    all,
  ];
  const candidates = tiers.find((tier) => tier.length > 0);
  if (candidates === undefined) return undefined;
  const scored = candidates.map((candidate) => ({
    ...candidate,
    ...score(candidate.batch, options.reference),
  }));
  let best = scored[0]!;
  for (const candidate of scored) {
    const gainDiff = candidate.gain - best.gain;
    if (
      gainDiff > 1e-12 ||
      (Math.abs(gainDiff) <= 1e-12 && candidate.spread > best.spread + 1e-12)
    ) {
      best = candidate;
    }
  }
  const percent = (share: number): string => `${(share * 100).toFixed(1)} %`;
  const why =
    best.gain > 0
      ? `${options.reference} is furthest above the best plan on this batch (by ${percent(best.gain)} of the lower bound)`
      : `the planners that pack calls together differ most on this batch (by ${percent(best.spread)} of the lower bound)`;
  return { workload: best.workload.name, batch: best.position, why };
}

function score(
  batch: BatchFigures,
  reference: string | undefined,
): { gain: number; spread: number } {
  const bound = batch.lowerBoundMs > 0 ? batch.lowerBoundMs : 1;
  // Strategies that keep the rules only: one that breaks them is no "best plan".
  const valid = batch.batch.filter(
    (result) => result.conflictingOverlaps === 0 && result.violations === 0,
  );
  const lowest = Math.min(...valid.map((result) => result.turnMs));
  const ref = valid.find((result) => result.strategy === reference);
  const gain = ref === undefined ? 0 : (ref.turnMs - lowest) / bound;
  const packing = valid.filter((result) => result.waves !== null && result.waves < batch.size);
  const spread =
    packing.length === 0
      ? 0
      : (Math.max(...packing.map((result) => result.turnMs)) - lowest) / bound;
  return { gain, spread };
}
