import { describeValue } from '@toolwaves/core';
import { BenchError } from './bench-error.js';

/** The command line of `pnpm bench`, parsed. */
export interface BenchArgs {
  /** `--quick`: the quick profile (well under a minute). */
  readonly quick: boolean;
  /** `--out DIR`: where the reports go (default: `bench-results/` at the repo root). */
  readonly out: string | undefined;
  /** `--seed N` (default 1). */
  readonly seed: number;
  /** `--max-concurrency N` (default 8). */
  readonly maxConcurrency: number;
  /** `--optimal-budget MS`: time budget of one `optimal` plan (default: the planner's, 50 ms). */
  readonly optimalBudgetMs: number | undefined;
  /** `--no-real`: skip the real runs. */
  readonly real: boolean;
  /** `--no-scaling`: skip the planning-time scaling. */
  readonly scaling: boolean;
  /** `--update-readme`: put the headline in the package README. */
  readonly updateReadme: boolean;
  /** `--help`. */
  readonly help: boolean;
}

/** The usage text of `pnpm bench`. */
export const BENCH_USAGE = `Usage: pnpm bench [options]

  --quick               one batch per size, smaller scaling and real runs (under a minute)
  --out DIR             write report.md, report.json and report.html to DIR
                        (default: bench-results/ at the repo root)
  --seed N              seed of the batches (default 1)
  --max-concurrency N   cap inside a wave (default 8)
  --optimal-budget MS   time budget of one optimal plan (default 50)
  --no-real             skip the real runs
  --no-scaling          skip the planning-time scaling
  --update-readme       put the headline in packages/bench/README.md
  --help                this text`;

/**
 * Parses the arguments of `pnpm bench` (pure).
 *
 * @throws {BenchError} `invalid_options` naming the flag and the value, e.g.
 * "Expected `--seed` to be an integer, got `"x"` (string)".
 * @example parseBenchArgs(['--quick', '--out', 'tmp/results']).out; // 'tmp/results'
 */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  let quick = false;
  let out: string | undefined;
  let seed = 1;
  let maxConcurrency = 8;
  let optimalBudgetMs: number | undefined;
  let real = true;
  let scaling = true;
  let updateReadme = false;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined || next.startsWith('--')) {
        throw new BenchError({
          code: 'invalid_options',
          message: `Expected \`${arg}\` to be followed by a value, got ${next === undefined ? 'nothing' : describeValue(next)}`,
        });
      }
      return next;
    };
    if (arg === '--') continue;
    else if (arg === '--quick') quick = true;
    else if (arg === '--out') out = value();
    else if (arg === '--seed') seed = integer(arg, value(), Number.MIN_SAFE_INTEGER);
    else if (arg === '--max-concurrency') maxConcurrency = integer(arg, value(), 1);
    else if (arg === '--optimal-budget') optimalBudgetMs = integer(arg, value(), 1);
    else if (arg === '--no-real') real = false;
    else if (arg === '--no-scaling') scaling = false;
    else if (arg === '--update-readme') updateReadme = true;
    else if (arg === '--help' || arg === '-h') help = true;
    else {
      throw new BenchError({
        code: 'invalid_options',
        message: `Unknown option ${describeValue(arg)}; run \`pnpm bench --help\``,
      });
    }
  }
  return { quick, out, seed, maxConcurrency, optimalBudgetMs, real, scaling, updateReadme, help };
}

function integer(flag: string, text: string, min: number): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value) || value < min) {
    throw new BenchError({
      code: 'invalid_options',
      message: `Expected \`${flag}\` to be an integer${min === 1 ? ' from 1 and up' : ''}, got ${describeValue(text)}`,
    });
  }
  return value;
}
