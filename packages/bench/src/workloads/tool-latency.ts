/** The latency model of one tool: a log-normal distribution around a measured median. */
export interface ToolLatency {
  /** Median duration of one call, in ms. */
  readonly medianMs: number;
  /** Standard deviation of the logarithm of the duration (the tail's weight). */
  readonly sigma: number;
}

/** The durations the workloads sample from, per tool (tabulated in the README). */
export const TOOL_LATENCY: Readonly<Record<string, ToolLatency>> = {
  stat: { medianMs: 8, sigma: 0.5 },
  list_dir: { medianMs: 25, sigma: 0.5 },
  delete_file: { medianMs: 20, sigma: 0.5 },
  move_file: { medianMs: 35, sigma: 0.5 },
  read_file: { medianMs: 40, sigma: 0.6 },
  write_file: { medianMs: 55, sigma: 0.5 },
  edit_file: { medianMs: 70, sigma: 0.5 },
  glob: { medianMs: 90, sigma: 0.7 },
  grep: { medianMs: 150, sigma: 0.8 },
  run_check: { medianMs: 400, sigma: 0.7 },
  // Remote tools: median the geometric middle of the range, sigma so the range is about ±2σ.
  remote_fetch: { medianMs: 550, sigma: 0.85 },
  remote_update: { medianMs: 550, sigma: 0.85 },
  sub_agent: { medianMs: 24_500, sigma: 0.45 },
  run_tests: { medianMs: 17_300, sigma: 0.6 },
};
