import { parseArgs } from 'node:util';
import { describeValue } from '@toolwaves/core/internal';
import { closestName } from '@toolwaves/planner';
import { BenchError } from '../bench-error.js';

/** The flags of `pnpm bench`: their type, their argument and what they do (the usage text). */
const FLAGS = {
  quick: ['boolean', '', 'fewer seeds and batches, shorter real runs (about a minute)'],
  out: ['string', 'DIR', 'write the reports to DIR (default: bench-results/ at the repo root)'],
  seed: ['string', 'N', 'first seed of the batches (default 1)'],
  seeds: ['string', 'N', 'number of seeds, from --seed up (default 3 quick, 5 full)'],
  'max-concurrency': ['string', 'N', 'cap of the capped strategies (default 8)'],
  'optimal-expansions': ['string', 'N', 'work budget of one optimal plan (default 20000 nodes)'],
  'token-rate': ['string', 'N', 'tokens per second of a streamed turn (default 80)'],
  'no-real': ['boolean', '', 'skip the real streamed runs'],
  trace: ['string', 'FILE', 'replay a transcript (Claude Code, OpenAI chat, Anthropic, AI SDK)'],
  map: ['string', 'MODULE', "declarations of the transcript's other tools (see the README)"],
  help: ['boolean', '', 'this text'],
} as const;

/** The usage text of `pnpm bench`. */
export const BENCH_USAGE = `Usage: pnpm bench [options]\n\n${Object.entries(FLAGS)
  .map(([flag, [, value, text]]) => `  ${`--${flag} ${value}`.padEnd(25)}${text}`)
  .join('\n')}`;

const OPTIONS = {
  ...(Object.fromEntries(Object.entries(FLAGS).map(([flag, [type]]) => [flag, { type }])) as {
    [F in keyof typeof FLAGS]: { type: (typeof FLAGS)[F][0] };
  }),
  help: { type: 'boolean', short: 'h' },
} as const;

/** Parses `pnpm bench`'s arguments; `invalid_options` names the flag and the value. */
export function parseBenchArgs(argv: readonly string[]) {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
  try {
    const args = argv.filter((arg) => arg !== '--');
    values = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false }).values;
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
    optimalExpansions: optional('--optimal-expansions', values['optimal-expansions'], 0),
    tokenRate: optional('--token-rate', values['token-rate'], 1),
    real: values['no-real'] !== true,
    trace: values.trace,
    map: values.map,
    help: values.help === true,
  };
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
  // a near miss of a flag (`--quik`): the one meant
  const meant = unknown?.startsWith('-')
    ? closestName(unknown.replace(/^-+/, ''), Object.keys(FLAGS))
    : undefined;
  const help =
    meant === undefined
      ? 'run `pnpm bench --help`'
      : `did you mean \`--${meant}\`? (see \`pnpm bench --help\`)`;
  return new BenchError({
    code: 'invalid_options',
    message: `Unknown option ${describeValue(unknown ?? message)}; ${help}`,
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
