import { SeededRandom, seedFor } from '../workloads/seeded-random.js';
import type { ToolLatency } from '../workloads/tool-latency.js';

/** A tool of the retried-streams workload: reads run alongside, writes and commands do not. */
export type RetriedToolName = 'read_file' | 'grep' | 'edit_file' | 'run_command';

/** One call a model attempt writes, and when its last argument token arrives (ms into the attempt). */
export interface RetriedCall {
  readonly name: RetriedToolName;
  readonly file: string;
  /** How long the tool takes, ms (the simulation's truth: no strategy sees it). */
  readonly ms: number;
  readonly arrivalMs: number;
}

/** One request to the model: its calls as they stream, and how the stream ends. */
export interface ModelAttempt {
  readonly calls: readonly RetriedCall[];
  /** When the message ends (ms into the attempt): normally, or with the provider's error. */
  readonly endMs: number;
  /** The stream fails at `endMs` (an overloaded error mid-message) and the turn is retried. */
  readonly fails: boolean;
}

/** One turn: its attempts in order; every attempt but the last failed mid-stream. */
export interface RetriedTurn {
  readonly attempts: readonly ModelAttempt[];
}

/** Options of {@link retriedTurns}. */
export interface RetriedTurnsOptions {
  readonly seed: number;
  readonly turns: number;
  /** Share of model attempts whose stream fails mid-message. */
  readonly failShare: number;
  /** Tokens per second of the model writing the calls. */
  readonly tokensPerSecond: number;
}

const LATENCY: Readonly<Record<RetriedToolName, ToolLatency>> = {
  read_file: { medianMs: 40, sigma: 0.5 },
  grep: { medianMs: 150, sigma: 0.6 },
  edit_file: { medianMs: 30, sigma: 0.4 },
  run_command: { medianMs: 800, sigma: 0.6 },
};

const WEIGHTS: Readonly<Record<RetriedToolName, number>> = {
  read_file: 45,
  grep: 15,
  edit_file: 25,
  run_command: 15,
};

const FILES = ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts', 'src/e.ts', 'test/a.test.ts'];

/** A failing turn is retried at most this many times (the next attempt then completes). */
const MAX_FAILED_ATTEMPTS = 2;

/**
 * The turns of the retried-streams workload for one seed (pure: the same seed gives the same
 * turns). Each attempt writes 2–8 calls (reads, greps, edits and commands over a few files), each
 * call's arguments taking 30–120 tokens; in a seeded share of attempts the stream fails at a
 * uniform point between its first call and its end, and the harness asks again: the retried
 * attempt asks for the same calls in half the cases, for different ones in the other half.
 *
 * @example
 * const turns = retriedTurns({ seed: 1, turns: 40, failShare: 0.3, tokensPerSecond: 80 });
 */
export function retriedTurns(options: RetriedTurnsOptions): RetriedTurn[] {
  const { seed, turns, failShare, tokensPerSecond } = options;
  const result: RetriedTurn[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const random = new SeededRandom(seedFor({ seed, stream: 'retried-streams', item: turn }));
    const attempts: ModelAttempt[] = [];
    let calls = writeCalls(random, tokensPerSecond);
    for (;;) {
      const lastArrival = calls[calls.length - 1]!.arrivalMs;
      // the text after the last call: 10–40 tokens
      const fullEndMs = lastArrival + ((10 + random.int(31)) * 1000) / tokensPerSecond;
      const fails = attempts.length < MAX_FAILED_ATTEMPTS && random.chance(failShare);
      const firstArrival = calls[0]!.arrivalMs;
      const endMs = fails
        ? Math.round(firstArrival + random.next() * (fullEndMs - firstArrival))
        : Math.round(fullEndMs);
      attempts.push({
        calls: calls.filter((call) => call.arrivalMs < endMs || !fails),
        endMs,
        fails,
      });
      if (!fails) break;
      if (random.chance(0.5)) calls = writeCalls(random, tokensPerSecond);
    }
    result.push({ attempts });
  }
  return result;
}

function writeCalls(random: SeededRandom, tokensPerSecond: number): RetriedCall[] {
  const count = 2 + random.int(7);
  const calls: RetriedCall[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    at += ((30 + random.int(91)) * 1000) / tokensPerSecond;
    const name = random.weighted(WEIGHTS);
    calls.push({
      name,
      file: random.pick(FILES),
      ms: random.duration(LATENCY[name]),
      arrivalMs: Math.round(at),
    });
  }
  return calls;
}
