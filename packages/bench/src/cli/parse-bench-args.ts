import { parseArgs } from 'node:util';
import { describeValue } from '@toolwaves/core';
import { BenchError } from '../bench-error.js';

/** The usage text of `pnpm bench`. */
export const BENCH_USAGE = `Usage: pnpm bench [options]

  --quick                  fewer seeds and batches, smaller scaling and real runs (about a minute)
  --out DIR                write report.md, report.json and report.html to DIR
                           (default: bench-results/ at the repo root)
  --seed N                 first seed of the batches (default 1)
  --seeds N                number of seeds, from --seed up (default 3 quick, 5 full)
  --max-concurrency N      cap of the capped strategies (default 8)
  --optimal-expansions N   work budget of one optimal plan (default 20000 search nodes)
  --optimal-budget MS      time cap of one optimal plan, a safety net (default 10000)
  --token-rate N           tokens per second of a streamed turn (default 80)
  --no-real                skip the real runs (batch and streamed)
  --no-scaling             skip the planning-time scaling
  --trace FILE             replay a transcript (Claude Code stream-json, OpenAI chat,
                           Anthropic messages, AI SDK steps) through every strategy:
                           trace-report.{md,json,html}
  --map MODULE             declarations of the transcript's other tools (see the README)
  --update-readme          put the headline in packages/bench/README.md
  --help                   this text`;

const OPTIONS = {
  quick: { type: 'boolean' },
  out: { type: 'string' },
  seed: { type: 'string' },
  seeds: { type: 'string' },
  'max-concurrency': { type: 'string' },
  'optimal-budget': { type: 'string' },
  'optimal-expansions': { type: 'string' },
  'token-rate': { type: 'string' },
  'no-real': { type: 'boolean' },
  'no-scaling': { type: 'boolean' },
  trace: { type: 'string' },
  map: { type: 'string' },
  'update-readme': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Parses `pnpm bench`'s arguments; `invalid_options` names the flag and the value. */
export function parseBenchArgs(argv: readonly string[]) {
  let values: ReturnType<typeof parse>;
  try {
    values = parse(argv.filter((arg) => arg !== '--'));
  } catch (error) {
    throw translate(error);
  }
  const optional = (flag: string, text: string | undefined, min: number): number | undefined =>
    text === undefined ? undefined : integer(flag, text, min);
  return {
    quick: values.quick === true,
    out: values.out,
    seed: optional('--seed', values.seed, Number.MIN_SAFE_INTEGER) ?? 1,
    seeds: optional('--seeds', values.seeds, 1),
    maxConcurrency: optional('--max-concurrency', values['max-concurrency'], 1) ?? 8,
    optimalBudgetMs: optional('--optimal-budget', values['optimal-budget'], 1),
    optimalExpansions: optional('--optimal-expansions', values['optimal-expansions'], 0),
    tokenRate: optional('--token-rate', values['token-rate'], 1),
    real: values['no-real'] !== true,
    scaling: values['no-scaling'] !== true,
    trace: values.trace,
    map: values.map,
    updateReadme: values['update-readme'] === true,
    help: values.help === true,
  };
}

function parse(args: string[]) {
  return parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false }).values;
}

/** `parseArgs`'s errors, reworded to name the flag and the value. */
function translate(error: unknown): BenchError {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const flag = /'(-[^' ]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag !== undefined) {
    return new BenchError({
      code: 'invalid_options',
      message: `Expected \`${flag}\` to be followed by a value, got ${message.includes('ambiguous') ? 'another option' : 'nothing'}`,
      cause: error,
    });
  }
  const unknown =
    code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
      ? flag
      : /Unexpected argument '([^']*)'/.exec(message)?.[1];
  return new BenchError({
    code: 'invalid_options',
    message: `Unknown option ${describeValue(unknown ?? message)}; run \`pnpm bench --help\``,
    cause: error,
  });
}

function integer(flag: string, text: string, min: number): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value) || value < min) {
    throw new BenchError({
      code: 'invalid_options',
      message: `Expected \`${flag}\` to be an integer${min >= 0 ? ` from ${min} and up` : ''}, got ${describeValue(text)}`,
    });
  }
  return value;
}
