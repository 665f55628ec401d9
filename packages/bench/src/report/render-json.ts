import type { TraceReport } from '../trace/replay-trace.js';
import type { BenchReport } from './bench-report.js';

/**
 * `report.json` (pure): the report ({@link BenchReport} or a trace replay's) as indented JSON,
 * numbers rounded to 4 decimals.
 *
 * @example JSON.parse(renderJson(report)).overall.batch[0].versusGreedy.median;
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
