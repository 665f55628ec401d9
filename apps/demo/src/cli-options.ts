import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { describeValue } from '@toolwaves/core/internal';
import { closestName } from '@toolwaves/planner';
import { DemoError } from './demo-error.js';
import { FRAMEWORK_NAMES, type FrameworkName } from './framework-session.js';
import { DEFAULT_TOKENS_PER_SECOND } from './scripted-model.js';

/** The planners the demo knows by name. */
export const PLANNER_NAMES = ['greedy', 'ordered', 'sequential', 'optimal'] as const;
/** A planner the demo knows by name. */
export type PlannerName = (typeof PLANNER_NAMES)[number];

/** The demo's settings, from its flags. */
export interface CliOptions {
  readonly planner: PlannerName;
  readonly mode: 'sequential' | 'parallel';
  readonly maxConcurrency: number;
  /**
   * Run each call the moment the model has written it (eager, while later calls are still being
   * written), instead of waiting for the whole turn and running it in waves.
   */
  readonly stream: boolean;
  /** How fast the scripted model writes its turns. */
  readonly tokensPerSecond: number;
  /** A real folder to work in; the scripted session only touches a folder it creates there. */
  readonly workspace: string | undefined;
  /** Multiplier of the injected tool latencies (0 = none). */
  readonly latency: number;
  /** `--json` alone: the JSON report on stdout instead of the live view. */
  readonly json: boolean;
  /** `--json FILE`: the live view as usual, and the JSON report written to FILE. */
  readonly jsonFile: string | undefined;
  /** `--compare`: measure the comparisons at the end (whole against streamed turns, planners). */
  readonly compare: boolean;
  /** Keep the temp copy of the sample workspace instead of removing it at the end. */
  readonly keepWorkspace: boolean;
  /** A Redis URL: run two scripted agents on one workspace with fleet locks instead. */
  readonly fleet: string | undefined;
  /** `--trace [FILE]`: print the session as a span tree, or write it to FILE as OTLP JSON. */
  readonly trace: { readonly file: string | undefined } | undefined;
  /** Run the scripted session in this framework's own agent loop instead. */
  readonly framework: FrameworkName | undefined;
  /** `--durable`: one turn on a local Restate server, its service SIGKILLed mid-turn and restarted. */
  readonly durable: boolean;
  readonly help: boolean;
}

/** `--help` text. */
export const HELP_TEXT = `toolwaves demo: an agent loop whose tool calls run in planned, parallel waves.

Usage: pnpm demo [options]

Options:
  --planner NAME          greedy | ordered | sequential | optimal   (default: greedy);
                          plans whole turns (--no-stream) and the comparison
  --mode MODE             parallel | sequential                     (default: parallel)
  --max-concurrency N     calls at once, integer >= 1               (default: 8)
  --stream, --no-stream   run each call as soon as the model has written it, while it
                          writes the rest (eager), or wait for the whole turn and run
                          it in waves                               (default: --stream)
  --tokens-per-second N   how fast the scripted model writes, > 0   (default: ${DEFAULT_TOKENS_PER_SECOND}); a call
                          costs about 12 + (its arguments' JSON length) / 4 tokens
  --workspace DIR         work in DIR (the scripted session only touches a folder it creates
                          there); default: a copy of the sample workspace in a temp folder
  --latency X             scale the injected tool latencies (0 = none, default: 1)
  --compare               then measure, side by side on fresh copies, whole turns in waves
                          against streamed turns, and the four planners (about 30 s more)
  --keep-workspace        keep the temp workspace (removed at the end otherwise) to look at it
  --json [FILE]           print one machine-readable JSON report instead of the live view,
                          or write it to FILE (with the live view as usual); pipe it with
                          \`npx -y pnpm@10 --silent demo --json | ...\`
  --fleet URL             run two scripted agents at once on one workspace, coordinated by
                          the Redis at URL (redis://...): their edits of the same files wait
                          for each other and all land
  --trace [FILE]          trace the session with OpenTelemetry (@toolwaves/otel): print it
                          as a span tree with each call's wait and run, or write it to
                          FILE as OTLP JSON for a trace viewer
  --framework NAME        langchain | openai-agents | ai-sdk: run the scripted session in that
                          framework's own agent loop (its fake model replays the script); the
                          framework runs the tools, toolwaves decides when each call starts
                          (eager turns: --planner, --mode and --stream do not apply)
  --durable               run one turn on a local Restate server (installed by pnpm install):
                          kill the service (SIGKILL) twice mid-turn, start it again, and show
                          which calls answered from the journal and which ran again
  --help                  this text

Paths (--workspace, --trace FILE, --json FILE) are relative to the folder the command was run
in.

With OPENAI_API_KEY set (and optionally OPENAI_BASE_URL, OPENAI_MODEL), a real model drives
the loop through the official openai SDK; otherwise an embedded scripted model does.`;

/** Options of {@link parseCliOptions}. */
export interface ParseCliOptionsOptions {
  /**
   * The folder the user ran the command in: the paths given in flags are relative to it. Default
   * `process.cwd()`; the demo passes {@link commandDir}.
   */
  readonly cwd?: string;
}

/**
 * The folder the user ran the command in: `INIT_CWD` when a package manager started the demo
 * (`pnpm demo` runs it from `apps/demo`, and says where it was called from there), else `cwd`.
 */
export function commandDir(options: {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}): string {
  const dir = options.env.INIT_CWD;
  return dir === undefined || dir === '' ? options.cwd : dir;
}

/**
 * Reads the demo's flags. Bad values are errors naming the flag and the value. Paths come back
 * absolute, resolved against `cwd`.
 *
 * @throws DemoError `invalid_flag`
 */
export function parseCliOptions(
  argv: readonly string[],
  options: ParseCliOptionsOptions = {},
): CliOptions {
  const cwd = options.cwd ?? process.cwd();
  const path = (value: string | undefined) =>
    value === undefined || value === '' ? undefined : resolve(cwd, value);
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(withOptionalValues(argv));
  } catch (error) {
    throw new DemoError({ code: 'invalid_flag', message: parseFailure(error), cause: error });
  }
  const { values } = parsed;
  const planner = oneOf('--planner', PLANNER_NAMES, values.planner ?? 'greedy');
  const mode = values.mode ?? 'parallel';
  if (mode !== 'parallel' && mode !== 'sequential') {
    throw invalid('--mode', 'parallel or sequential', mode);
  }
  const maxConcurrency = Number(values['max-concurrency'] ?? '8');
  if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1) {
    throw invalid('--max-concurrency', 'an integer from 1 and up', values['max-concurrency']);
  }
  if (values.stream === true && values['no-stream'] === true) {
    throw new DemoError({
      code: 'invalid_flag',
      message: 'Expected one of `--stream` and `--no-stream`, got both',
    });
  }
  const tokensPerSecond = Number(values['tokens-per-second'] ?? String(DEFAULT_TOKENS_PER_SECOND));
  if (!Number.isFinite(tokensPerSecond) || tokensPerSecond <= 0) {
    throw invalid('--tokens-per-second', 'a number above 0', values['tokens-per-second']);
  }
  const latency = Number(values.latency ?? '1');
  if (!Number.isFinite(latency) || latency < 0) {
    throw invalid('--latency', 'a number from 0 and up', values.latency);
  }
  const framework = frameworkName(values.framework);
  const jsonFile = path(values.json);
  if (framework !== undefined && jsonFile !== undefined) {
    throw new DemoError({
      code: 'invalid_flag',
      message: `Expected \`--json\` without a FILE with \`--framework\`, got \`--json ${values.json}\``,
    });
  }
  const durable = values.durable ?? false;
  const besideDurable = (['fleet', 'framework', 'json', 'compare', 'trace'] as const).find(
    (flag) => values[flag] !== undefined,
  );
  if (durable && besideDurable !== undefined) {
    throw new DemoError({
      code: 'invalid_flag',
      message: `Expected \`--durable\` without \`--${besideDurable}\` (it runs one turn of its own), got both`,
    });
  }
  return {
    planner,
    mode,
    maxConcurrency,
    stream: !(values['no-stream'] ?? false),
    tokensPerSecond,
    workspace: path(values.workspace),
    latency,
    json: values.json === '',
    jsonFile,
    compare: values.compare ?? false,
    keepWorkspace: values['keep-workspace'] ?? false,
    fleet: fleetUrl(values.fleet),
    trace: values.trace === undefined ? undefined : { file: path(values.trace) },
    framework,
    durable,
    help: values.help ?? false,
  };
}

/** The demo's flags, as `parseArgs` reads them. */
const FLAGS = {
  planner: { type: 'string' },
  mode: { type: 'string' },
  'max-concurrency': { type: 'string' },
  stream: { type: 'boolean' },
  'no-stream': { type: 'boolean' },
  'tokens-per-second': { type: 'string' },
  workspace: { type: 'string' },
  latency: { type: 'string' },
  compare: { type: 'boolean' },
  'keep-workspace': { type: 'boolean' },
  json: { type: 'string' },
  fleet: { type: 'string' },
  trace: { type: 'string' },
  framework: { type: 'string' },
  durable: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parse(argv: readonly string[]) {
  return parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: FLAGS });
}

/**
 * What `parseArgs` refused, for the user: an unknown flag with the one meant when it is a near
 * miss (`--plannr` → `--planner`), anything else in `parseArgs`'s own words.
 */
function parseFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '(-{1,2})([^'=]+)'/.exec(message);
  if ((error as { code?: unknown }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || unknown === null) {
    return `${message} (see --help)`;
  }
  const [, dashes, name] = unknown;
  const meant = closestName(name!, Object.keys(FLAGS));
  const hint = meant === undefined ? '' : `; did you mean \`--${meant}\`?`;
  return `Unknown option \`${dashes}${name}\`${hint} (see --help)`;
}

/** Flags whose FILE is optional. */
const OPTIONAL_VALUE = new Set(['--trace', '--json']);

/**
 * `--trace` and `--json` take an optional FILE: without one (last, or before another flag) the
 * flag becomes `--trace=` (`--json=`).
 */
function withOptionalValues(argv: readonly string[]): string[] {
  return argv.map((arg, i) =>
    OPTIONAL_VALUE.has(arg) && (argv[i + 1] === undefined || argv[i + 1]!.startsWith('-'))
      ? `${arg}=`
      : arg,
  );
}

function fleetUrl(value: string | undefined): string | undefined {
  if (value !== undefined && !/^rediss?:\/\//.test(value)) {
    throw invalid('--fleet', 'a redis:// or rediss:// URL', value);
  }
  return value;
}

function frameworkName(value: string | undefined): FrameworkName | undefined {
  return value === undefined ? undefined : oneOf('--framework', FRAMEWORK_NAMES, value);
}

function invalid(flag: string, expected: string, value: unknown): DemoError {
  return new DemoError({
    code: 'invalid_flag',
    message: `Expected \`${flag}\` to be ${expected}, got ${describeValue(value)}`,
  });
}

/**
 * `value` of `flag` when it is one of `choices`; else an error listing them, with the one meant
 * when it is a near miss (`gredy` → `greedy`).
 */
function oneOf<T extends string>(flag: string, choices: readonly T[], value: string): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  const meant = closestName(value, choices);
  const error = invalid(flag, `one of ${choices.join(', ')}`, value);
  if (meant === undefined) throw error;
  throw new DemoError({
    code: 'invalid_flag',
    message: `${error.message}; did you mean \`${meant}\`?`,
  });
}
