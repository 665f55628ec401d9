/** The latency model of one tool: a log-normal distribution around a measured median. */
export interface ToolLatency {
  /** Median duration of one call, in ms. */
  readonly medianMs: number;
  /** Standard deviation of the logarithm of the duration (the tail's weight). */
  readonly sigma: number;
}

/**
 * The durations the workloads sample from, per tool: medians of what these tools cost an agent
 * on a mid-sized repository (a few thousand files, warm disk cache), measured end to end around
 * the tool (argument parsing, the I/O, formatting the result), and log-normal tails:
 *
 * | tool          | median | sigma | p99 ≈   | why                                              |
 * | ------------- | -----: | ----: | ------: | ------------------------------------------------ |
 * | `stat`        |   8 ms |   0.5 |   26 ms | one syscall and a small answer                   |
 * | `list_dir`    |  25 ms |   0.5 |   80 ms | one folder                                       |
 * | `delete_file` |  20 ms |   0.5 |   64 ms | one unlink                                       |
 * | `move_file`   |  35 ms |   0.5 |  112 ms | a rename, checks on both ends                    |
 * | `read_file`   |  40 ms |   0.6 |  162 ms | a source file, numbered lines                    |
 * | `write_file`  |  55 ms |   0.5 |  176 ms | write, then flush                                |
 * | `edit_file`   |  70 ms |   0.5 |  224 ms | read, find the unique match, write back          |
 * | `glob`        |  90 ms |   0.7 |  459 ms | walks a subtree                                  |
 * | `grep`        | 150 ms |   0.8 |  963 ms | reads every file under a folder: the long tail   |
 * | `run_check`   | 400 ms |   0.7 | 2040 ms | a shell command (lint or a test file): a barrier |
 *
 * The seed model's abstract tools use `Read` 40 ms, `Edit` 70 ms, `Grep` 150 ms, `Stat` 8 ms,
 * `Shell` 400 ms (same sigmas as their counterparts above).
 *
 * @see sampleLogNormal
 */
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
  Read: { medianMs: 40, sigma: 0.6 },
  Edit: { medianMs: 70, sigma: 0.5 },
  Grep: { medianMs: 150, sigma: 0.8 },
  Stat: { medianMs: 8, sigma: 0.5 },
  Shell: { medianMs: 400, sigma: 0.7 },
  // Remote tools: median the geometric middle of the range, sigma so the range is about ±2σ.
  remote_fetch: { medianMs: 550, sigma: 0.85 },
  remote_update: { medianMs: 550, sigma: 0.85 },
  sub_agent: { medianMs: 24_500, sigma: 0.45 },
  run_tests: { medianMs: 17_300, sigma: 0.6 },
};
