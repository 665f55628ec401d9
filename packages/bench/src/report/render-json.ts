import type { TraceReport } from '../trace/replay-trace.js';
import type { BenchReport } from './bench-report.js';

/**
 * `report.json` (pure): the report as indented JSON, numbers rounded to 4 decimals (durations
 * are in ms: that is 0.1 µs). Shape: `{ meta, workloads: [{ name, batches, results: [{ planner,
 * waves, makespanMs, lowerBoundMs, ratio, planMs, proven, … }], perBatch }], scaling, realRuns }`
 * ({@link BenchReport}).
 *
 * @example JSON.parse(renderJson(report)).workloads[0].results[0].ratio;
 */
export function renderJson(report: BenchReport | TraceReport): string {
  return `${JSON.stringify(
    report,
    (_key, value: unknown) =>
      typeof value === 'number' && !Number.isInteger(value) && Number.isFinite(value)
        ? Math.round(value * 1e4) / 1e4
        : value,
    2,
  )}\n`;
}
