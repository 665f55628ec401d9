import { checkOptions } from '@toolwaves/core/internal';
import { invalidConfig } from './dispatch-error.js';

/** What {@link ToolHealth} knows about one tool. */
export interface ToolHealthStats {
  /** Attempts that ran the tool and answered without `isError`. */
  readonly successes: number;
  /** Attempts that ran the tool and threw, answered `isError`, or timed out. */
  readonly failures: number;
  /** Latency estimate in ms (exponentially weighted moving average); `undefined` before any sample. */
  readonly latencyMs: number | undefined;
}

/** One attempt, as {@link ToolHealth.record} takes it. */
export interface ToolHealthSample {
  readonly toolName: string;
  readonly ok: boolean;
  readonly durationMs: number;
}

/** Options of {@link ToolHealth}. */
export interface ToolHealthOptions {
  /** Weight of the newest sample in the latency average, in (0, 1]. Default 0.2. */
  readonly alpha?: number;
}

type Entry = { -readonly [K in keyof ToolHealthStats]: ToolHealthStats[K] };

const ALPHA = {
  expected: 'a number above 0 and at most 1',
  test: (value: unknown): value is number => typeof value === 'number' && value > 0 && value <= 1,
};

/**
 * Per-tool successes, failures and a latency estimate (EWMA: the first sample sets it, each
 * later one moves it by `alpha` of the difference), shared by the dispatchers given it.
 *
 * @example
 * ```ts
 * const health = new ToolHealth({ alpha: 0.5 });
 * const a = new Dispatcher({ registry, health });
 * const b = new Dispatcher({ registry, health, mode: 'parallel' });
 * health.stats('read_file'); // { successes, failures, latencyMs }
 * ```
 * @see DispatcherOptions.health
 */
export class ToolHealth {
  readonly alpha: number;
  readonly #entries = new Map<string, Entry>();

  /** @throws DispatchError `invalid_config` when `alpha` is not in (0, 1], or for an unknown option. */
  constructor(options: ToolHealthOptions = {}) {
    checkOptions({ subject: 'ToolHealth', options, rules: { alpha: ALPHA }, error: invalidConfig });
    this.alpha = options.alpha ?? 0.2;
  }

  /** Records one attempt. */
  record(sample: ToolHealthSample): void {
    let entry = this.#entries.get(sample.toolName);
    if (entry === undefined) {
      entry = { successes: 0, failures: 0, latencyMs: undefined };
      this.#entries.set(sample.toolName, entry);
    }
    if (sample.ok) entry.successes += 1;
    else entry.failures += 1;
    entry.latencyMs =
      entry.latencyMs === undefined
        ? sample.durationMs
        : entry.latencyMs + this.alpha * (sample.durationMs - entry.latencyMs);
  }

  /** What is known about a tool (zeros and no latency for a tool never recorded). */
  stats(toolName: string): ToolHealthStats {
    const entry = this.#entries.get(toolName);
    return entry === undefined ? { successes: 0, failures: 0, latencyMs: undefined } : { ...entry };
  }

  /** The latency estimate of a tool in ms, or `undefined` before any sample. */
  estimateMs(toolName: string): number | undefined {
    return this.#entries.get(toolName)?.latencyMs;
  }

  /** Every recorded tool's stats, by name (sorted). */
  snapshot(): Record<string, ToolHealthStats> {
    const out: Record<string, ToolHealthStats> = {};
    for (const name of [...this.#entries.keys()].sort()) out[name] = this.stats(name);
    return out;
  }

  /** Forgets everything. */
  reset(): void {
    this.#entries.clear();
  }
}
