import { rm } from 'node:fs/promises';
import { cpus, platform } from 'node:os';
import type { ToolRegistry } from '@toolwaves/core';
import { checkOptions, type OptionRule, optionRules } from '@toolwaves/core/internal';
import { BenchError, invalidOptions } from './bench-error.js';
import { type BenchProfile, FULL_PROFILE, QUICK_PROFILE } from './bench-profile.js';
import type { Progress } from './cli/progress.js';
import { compareRemoteStrategies } from './limits/compare-remote-strategies.js';
import { runRealStream } from './real/run-real.js';
import type { BenchReport } from './report/bench-report.js';
import { runRetriedStreams } from './retries/run-retried-streams.js';
import { compareStrategies } from './simulate/compare-strategies.js';
import { DEFAULT_TOKENS_PER_SECOND } from './simulate/turn-inputs.js';
import { defaultStrategies } from './strategies/default-strategies.js';
import type { Strategy } from './strategies/strategy.js';
import { benchRegistry } from './workloads/bench-registry.js';
import { defaultWorkloads, generateBatches } from './workloads/generate-batches.js';
import type { Workload } from './workloads/workload.js';
import { createWorkspace, workspaceLayout } from './workloads/workspace-layout.js';

/** Options of {@link runBench}. */
export interface RunBenchOptions {
  /** In report order (default {@link defaultStrategies}); `greedy` (or the first planner) also runs for real. */
  readonly strategies?: readonly Strategy[];
  readonly quick?: boolean;
  /** Overrides of the profile's settings. */
  readonly profile?: Partial<BenchProfile>;
  /** First seed (default 1). */
  readonly seed?: number;
  /** Streamed turns: tokens per second of the token model (default 80). */
  readonly tokensPerSecond?: number;
  /** Cap of the capped strategies (default 8). */
  readonly maxConcurrency?: number;
  /** The workloads (default {@link defaultWorkloads}). */
  readonly workloads?: readonly Workload[];
  /** The tools on a workspace (default {@link benchRegistry}). */
  readonly registryFor?: (root: string) => ToolRegistry;
  readonly clock?: () => number;
  readonly progress?: Progress;
  /** Stops the run at the next batch or real run, rejecting with its reason. */
  readonly signal?: AbortSignal;
  /** The command line that reproduces the run. */
  readonly command?: string;
}

const { integerFrom, numberAbove, arrayOf, function: fn } = optionRules;

/** Share of model attempts of the retried-streams workload whose stream fails mid-message. */
const RETRIED_FAIL_SHARE = 0.3;
const SIZES = arrayOf('an array of batch sizes', integerFrom(1));

/** What each option must be; `profile.*` are the profile's own settings. */
const RULES: Readonly<Record<string, OptionRule<unknown>>> = {
  strategies: optionRules.array,
  quick: optionRules.boolean,
  profile: optionRules.object,
  'profile.sizes': SIZES,
  'profile.repeats': integerFrom(1),
  'profile.seeds': integerFrom(1),
  'profile.warmupTurns': integerFrom(0),
  'profile.realSizes': SIZES,
  'profile.realRepeats': integerFrom(1),
  'profile.streamBudgetMs': optionRules.numberFrom(0),
  'profile.retriedTurns': integerFrom(0),
  seed: integerFrom(-(2 ** 53) + 1),
  tokensPerSecond: numberAbove(0),
  maxConcurrency: integerFrom(1),
  workloads: optionRules.array,
  registryFor: fn,
  clock: fn,
  progress: optionRules.withMethods('a Progress ({ update(step) })', ['update']),
  signal: { expected: 'an AbortSignal', test: (value) => value instanceof AbortSignal },
  command: optionRules.string,
} satisfies Record<keyof RunBenchOptions | `profile.${keyof BenchProfile}`, OptionRule<unknown>>;

/**
 * Runs the whole benchmark and returns its figures (render them with `renderMarkdown`,
 * `renderJson`, `renderHtml`): every workload's batches for each seed on a generated workspace,
 * every strategy on each, batch and streamed, simulated ({@link compareStrategies}); and the
 * streamed tool batches run for real by the `Dispatcher`, wait-then-waves against eager
 * ({@link runRealStream}).
 *
 * @throws {BenchError} `invalid_options` naming the option and the value (e.g. a
 * `maxConcurrency` of 0), `invalid_strategies`, `strategy_failed`, or the signal's reason.
 * @example
 * const report = await runBench({ quick: true });
 * console.log(headlineMarkdown(report));
 */
export async function runBench(options: RunBenchOptions = {}): Promise<BenchReport> {
  const profile: BenchProfile = {
    ...(options.quick === true ? QUICK_PROFILE : FULL_PROFILE),
    ...options.profile,
  };
  checkOptions({ subject: 'runBench', options, rules: RULES, error: invalidOptions });
  const firstSeed = options.seed ?? 1;
  const seeds = Array.from({ length: profile.seeds }, (_, s) => firstSeed + s);
  const maxConcurrency = options.maxConcurrency ?? 8;
  const tokensPerSecond = options.tokensPerSecond ?? DEFAULT_TOKENS_PER_SECOND;
  const clock = options.clock ?? (() => performance.now());
  const registryFor = options.registryFor ?? ((root: string) => benchRegistry({ root }));
  const strategies = checkStrategies(options.strategies ?? defaultStrategies());
  const reference = strategies.some((strategy) => strategy.name === 'greedy') ? 'greedy' : null;
  const tick = (phase: string) => (done: number, total: number, detail?: string) => {
    options.signal?.throwIfAborted();
    options.progress?.update({ phase, done, total, ...(detail === undefined ? {} : { detail }) });
  };
  const layout = workspaceLayout();
  const root = await createWorkspace({ layout });
  try {
    const registry = registryFor(root);
    const { sizes, repeats, warmupTurns } = profile;
    const workloads = options.workloads ?? defaultWorkloads();
    const bySeed = seeds.map((seed) =>
      generateBatches({ workloads, registry, layout, seed, sizes, repeats, warmupTurns }),
    );
    const comparison = compareStrategies({
      seeds: bySeed,
      strategies,
      maxConcurrency,
      tokensPerSecond,
      onBatch: tick('simulating'),
    });
    const wavePlanner = (
      strategies.find((strategy) => strategy.name === reference) ??
      strategies.find((strategy) => strategy.planner !== undefined && !strategy.clairvoyant)
    )?.planner;
    const realStreams =
      wavePlanner === undefined
        ? { latencyScale: 0, runs: [] }
        : await runRealStream({
            // Tool workloads of the first seed whose tools are not stand-ins.
            workloads: bySeed[0]!.filter((workload) => !workload.simulatedOnly),
            figures: comparison.workloads,
            layout,
            registryFor,
            sizes: profile.realSizes,
            repeats: profile.realRepeats,
            maxConcurrency,
            clock,
            planner: wavePlanner,
            tokensPerSecond,
            budgetMs: profile.streamBudgetMs,
            onRun: tick('real streams'),
          });
    const retriedStreams =
      profile.retriedTurns === 0
        ? null
        : await runRetriedStreams({
            seeds,
            turns: profile.retriedTurns,
            failShare: RETRIED_FAIL_SHARE,
            tokensPerSecond,
            maxConcurrency,
            onRun: tick('retried streams'),
          });
    // The rate-limited servers: 12 turns per seed (per repeat), simulated only.
    const rateLimited = compareRemoteStrategies({
      seeds,
      turns: 12 * profile.repeats,
      maxConcurrency,
    });
    const cpu = cpus();
    return {
      meta: {
        seeds,
        quick: options.quick === true,
        maxConcurrency,
        profile,
        tokensPerSecond,
        strategies: strategies.map(({ name, description, clairvoyant }) => {
          return { name, description, clairvoyant: clairvoyant === true };
        }),
        reference,
        streamLatencyScale: realStreams.latencyScale,
        command: options.command ?? 'pnpm bench',
        generatedAt: new Date().toISOString(),
        environment: `Node ${process.version}, ${platform()}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}`,
      },
      ...comparison,
      realStreams: realStreams.runs,
      retriedStreams,
      rateLimited,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The strategies, checked: at least one, each with a name and `execute`, names unique. */
function checkStrategies(strategies: readonly Strategy[]): readonly Strategy[] {
  const refuse = (message: string) => new BenchError({ code: 'invalid_strategies', message });
  const names = new Set<string>();
  for (const strategy of strategies) {
    const candidate = strategy as Partial<Strategy> | null;
    if (typeof candidate?.name !== 'string' || typeof candidate.execute !== 'function') {
      throw refuse(
        `Expected every strategy to have a \`name\` and an \`execute\` function, got \`${String(candidate?.name ?? candidate)}\``,
      );
    }
    if (names.has(strategy.name))
      throw refuse(`Expected strategy names to be unique, got \`${strategy.name}\` twice`);
    names.add(strategy.name);
  }
  if (names.size === 0) throw refuse('Expected at least one strategy, got none');
  return strategies;
}
