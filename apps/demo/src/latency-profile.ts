/**
 * Injected latency per tool, in ms, so the demo's speedup is visible on a laptop's fast disk:
 * roughly what these tools cost an agent on a real repository.
 */
export const DEMO_LATENCY_MS: Readonly<Record<string, number>> = {
  read_file: 60,
  write_file: 80,
  edit_file: 90,
  list_dir: 40,
  glob: 120,
  grep: 180,
  stat: 25,
  move_file: 70,
  delete_file: 50,
  run_check: 250,
};

/** The injected latency of a tool, scaled; unknown tools get 50 ms. */
export function demoLatencyMs(toolName: string, scale: number): number {
  return (DEMO_LATENCY_MS[toolName] ?? 50) * scale;
}
