/**
 * Injected latency per tool, in ms: what these tools cost an agent on a real repository (a few
 * thousand files), where the sample project's fast disk costs next to nothing. A file read or an
 * edit is tens of ms; a glob walks the tree and a grep (ripgrep) reads every file, hundreds of
 * ms; a project check (typecheck and lint of a small package) is most of a second. With the model
 * writing a call in about 0.1 s, the slower calls are still running when the next ones arrive.
 */
export const DEMO_LATENCY_MS: Readonly<Record<string, number>> = {
  read_file: 50,
  write_file: 70,
  edit_file: 80,
  list_dir: 40,
  glob: 300,
  grep: 400,
  stat: 20,
  move_file: 60,
  delete_file: 40,
  run_check: 800,
};

/** The injected latency of a tool, scaled; unknown tools get 50 ms. */
export function demoLatencyMs(toolName: string, scale: number): number {
  return (DEMO_LATENCY_MS[toolName] ?? 50) * scale;
}
