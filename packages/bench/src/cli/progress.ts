/** Where a run is. */
export interface ProgressState {
  /** e.g. `planning`, `scaling`, `real runs`. */
  readonly phase: string;
  readonly done: number;
  readonly total: number;
  /** What is being worked on, e.g. `mixed`. */
  readonly detail?: string;
}

/** A progress display. */
export interface Progress {
  update(state: ProgressState): void;
  /** Ends the display with a last line. */
  finish(message: string): void;
}

/** The stream a {@link createProgress} display writes to (stderr, usually). */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/** Options of {@link createProgress}. */
export interface CreateProgressOptions {
  readonly stream: ProgressStream;
  /** A monotonic clock in ms (default `performance.now`). */
  readonly clock?: () => number;
  /** Least time between two lines when the stream is not a terminal (default 2000 ms). */
  readonly intervalMs?: number;
  /** Least time between two redraws on a terminal (default 100 ms). */
  readonly redrawMs?: number;
}

/**
 * One progress line (pure): `planning 12/42 (29 %) mixed · 3.2 s`.
 *
 * @example formatProgress({ phase: 'planning', done: 1, total: 4, detail: 'explore' }, 1500);
 * // 'planning 1/4 (25 %) explore · 1.5 s'
 */
export function formatProgress(state: ProgressState, elapsedMs: number): string {
  const percent = state.total === 0 ? 100 : Math.floor((state.done / state.total) * 100);
  const detail = state.detail === undefined ? '' : ` ${state.detail}`;
  return `${state.phase} ${state.done}/${state.total} (${percent} %)${detail} · ${(elapsedMs / 1000).toFixed(1)} s`;
}

/**
 * A progress display: on a terminal, one line redrawn in place (`\r`, at most every
 * `redrawMs`); otherwise plain lines, one when a phase starts, then at most one every
 * `intervalMs`, and one when a phase completes — so logs of CI runs stay short.
 *
 * @example
 * const progress = createProgress({ stream: process.stderr });
 * progress.update({ phase: 'planning', done: 3, total: 40, detail: 'mixed' });
 * progress.finish('done in 12.3 s');
 */
export function createProgress(options: CreateProgressOptions): Progress {
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
      const complete = state.done >= state.total;
      if (!newPhase && !complete && now - lastWrite < every) return;
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
