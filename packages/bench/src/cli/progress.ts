/** Where a run is: a phase (`simulating`, `real runs`, …), how far, and what is being worked on. */
export interface ProgressState {
  readonly phase: string;
  readonly done: number;
  readonly total: number;
  readonly detail?: string;
}

/** A progress display. */
export interface Progress {
  update(state: ProgressState): void;
  /** Ends the display with a last line. */
  finish(message: string): void;
}

/** One progress line: `planning 1/4 (25 %) explore · 1.5 s`. */
export function formatProgress(state: ProgressState, elapsedMs: number): string {
  const percent = state.total === 0 ? 100 : Math.floor((state.done / state.total) * 100);
  const detail = state.detail === undefined ? '' : ` ${state.detail}`;
  return `${state.phase} ${state.done}/${state.total} (${percent} %)${detail} · ${(elapsedMs / 1000).toFixed(1)} s`;
}

/** A progress display: a line redrawn on a terminal, else a few plain lines (CI logs). */
export function createProgress(options: {
  readonly stream: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly clock?: () => number;
  readonly intervalMs?: number;
  readonly redrawMs?: number;
}): Progress {
  const { stream } = options;
  const clock = options.clock ?? (() => performance.now());
  const tty = stream.isTTY === true;
  const every = tty ? (options.redrawMs ?? 100) : (options.intervalMs ?? 2000);
  const started = clock();
  let lastPhase: string | undefined;
  let lastWrite = Number.NEGATIVE_INFINITY;
  return {
    update(state) {
      const now = clock();
      const newPhase = state.phase !== lastPhase;
      if (!newPhase && state.done < state.total && now - lastWrite < every) return;
      lastPhase = state.phase;
      lastWrite = now;
      const line = formatProgress(state, now - started);
      stream.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
    },
    finish(message) {
      stream.write(tty ? `\r${message}\x1b[K\n` : `${message}\n`);
    },
  };
}
