import type { ComparisonRow } from './compare-planners.js';
import type { StreamingRow } from './compare-streaming.js';
import { formatTable } from './format-table.js';
import type { TerminalStyle } from './terminal-style.js';

/**
 * Why `optimal` can show slower than `greedy` in the planner table: it minimises the time its
 * estimates predict, which is not the time the run then takes.
 */
export const OPTIMAL_AT_RUN_TIME =
  'optimal plans for the shortest time its estimates predict (each tool’s past durations in the ' +
  'dispatcher’s health record; a tool not seen yet has none), not the time the run will take: ' +
  'when the estimates are off, or its waves are the same as greedy’s, its planning time and ' +
  'run-to-run noise can put it behind greedy.';

/** The lines of `--compare`'s first table: whole turns in waves against streamed turns. */
export function formatStreamingComparison(options: {
  readonly rows: readonly StreamingRow[];
  readonly tokensPerSecond: number;
  readonly style: TerminalStyle;
}): string[] {
  const { rows, style } = options;
  const whole = rows[0];
  return [
    style.bold('Whole turns against streamed turns') +
      style.dim(
        ` (the model writing at ${options.tokensPerSecond} tokens/s, measured side by side)`,
      ),
    formatTable({
      header: ['strategy', 'turn latency', 'vs whole turn', 'tool time after writing'],
      rows: rows.map((row) => [
        row.strategy,
        `${Math.round(row.latencyMs)} ms`,
        whole === undefined || row.latencyMs === 0
          ? '-'
          : `${(whole.latencyMs / row.latencyMs).toFixed(2)}×`,
        `${Math.round(row.afterWritingMs)} ms`,
      ]),
      alignRight: [1, 2, 3],
    }),
    style.dim(
      '  turn latency: first tool-call token → last result, summed over the turns; the model wrote for ' +
        `${Math.round(whole?.writingMs ?? 0)} ms in all`,
    ),
  ];
}

/** The lines of `--compare`'s second table: the session under each planner, and why optimal may lose. */
export function formatPlannerComparison(options: {
  readonly rows: readonly ComparisonRow[];
  readonly style: TerminalStyle;
}): string[] {
  const { rows, style } = options;
  return [
    style.bold('The same session under each planner') +
      style.dim(' (whole turns at once, parallel mode, measured side by side)'),
    formatTable({
      header: ['planner', 'calls', 'waves', 'wall-clock', 'speedup vs sequential'],
      rows: rows.map((row) => [
        row.planner,
        String(row.calls),
        String(row.waves),
        `${Math.round(row.wallMs)} ms`,
        `${row.speedup.toFixed(2)}×`,
      ]),
      alignRight: [1, 2, 3, 4],
    }),
    style.dim(`  ${OPTIMAL_AT_RUN_TIME}`),
  ];
}
