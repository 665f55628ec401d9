import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/**
 * How long a function runs before V8's optimizing compiler takes it: eight times V8's default. A
 * test run executes much code only a few times, and with the default V8's background threads
 * spent a large share of the run's CPU in its optimizing compiler (perf: nearly all of it in
 * `v8::internal::compiler`) on code that then ran a few more times and was thrown away with its
 * worker. The planner's, core's and executor's tests (property tests, CPU-bound) took 18 % less
 * CPU with this (three pairs of runs, alternated, quiet machine, Node 20: 42–49 s of user time
 * against 56–59 s); on Node 22, 12 % less. On the whole suite the gain is smaller than this
 * machine's own swings from run to run. V8 12 (Node 22) counts calls where V8 11 (Node 20)
 * counted the bytecode run, under another flag. V8's flags are process-wide, so this reaches the
 * worker threads; the forked workers get it through `execArgv`. It changes when code is
 * optimized, not what any test does or checks.
 */
const OPTIMIZE_LATER =
  Number(process.versions.node.split('.')[0]) >= 22
    ? '--invocation-count-for-turbofan=24000' // default 3 000
    : '--interrupt-budget=540672'; // default 67 584
setFlagsFromString(OPTIMIZE_LATER);

/**
 * V8 keeps the bytecode of a function it has not run for a while instead of dropping it and
 * compiling the source again at the next call (its default, to save memory). A worker runs file
 * after file against the same modules (rxjs, zod, the packages' sources): what one file used and
 * the next few did not was compiled again when a later file called it. Whole runs, alternated on
 * a quiet machine: 120.5 and 123.6 s of user time with this against 125.2 and 129.8 s without
 * (wall 76.7 and 79.4 s against 82.0 and 81.2 s); five pairs of runs of five packages' projects:
 * less user time in four (2–7 s), more in one (5 s). Like the flag above, it changes when code is
 * compiled, not what any test does.
 */
const KEEP_BYTECODE = '--no-flush-bytecode';
setFlagsFromString(KEEP_BYTECODE);

/**
 * The processes the tests start (the turn services, the fleet agents, the demo, the MCP server,
 * the forked workers: more than a hundred node processes a run) start without
 * `NODE_EXTRA_CA_CERTS`. Node reads and parses that file of certificates at every start, before
 * any code runs: 90 ms of CPU per start on this project's 2-core machines, where the variable
 * names the system's bundle (`node -e 0`: 0.11 s of user time with it, 0.02 s without), 5 s of
 * the turn services' and agents' CPU a run. No test process speaks TLS (every server a test uses
 * is on loopback, in plain TCP), so none of them needs it; this process keeps it.
 */
delete process.env.NODE_EXTRA_CA_CERTS;

/** Workspace packages resolve to their source: tests never need a build. */
const alias = [
  { find: /^@toolwaves\/planner$/, replacement: here('./packages/planner/src/index.ts') },
  {
    find: /^@toolwaves\/core\/testing$/,
    replacement: here('./packages/core/src/testing/index.ts'),
  },
  { find: /^@toolwaves\/core\/node$/, replacement: here('./packages/core/src/node/index.ts') },
  {
    find: /^@toolwaves\/core\/internal$/,
    replacement: here('./packages/core/src/internal/index.ts'),
  },
  { find: /^@toolwaves\/core$/, replacement: here('./packages/core/src/index.ts') },
  { find: /^@toolwaves\/executor-rx$/, replacement: here('./packages/executor-rx/src/index.ts') },
  {
    find: /^@toolwaves\/tools-fs\/testing$/,
    replacement: here('./packages/tools-fs/src/testing/index.ts'),
  },
  { find: /^@toolwaves\/tools-fs$/, replacement: here('./packages/tools-fs/src/index.ts') },
  { find: /^@toolwaves\/bench$/, replacement: here('./packages/bench/src/index.ts') },
  { find: /^@toolwaves\/ai-sdk$/, replacement: here('./packages/ai-sdk/src/index.ts') },
  { find: /^@toolwaves\/mcp$/, replacement: here('./packages/mcp/src/index.ts') },
  { find: /^@toolwaves\/redis$/, replacement: here('./packages/redis/src/index.ts') },
  { find: /^@toolwaves\/otel$/, replacement: here('./packages/otel/src/index.ts') },
  { find: /^@toolwaves\/langchain$/, replacement: here('./packages/langchain/src/index.ts') },
  {
    find: /^@toolwaves\/openai-agents$/,
    replacement: here('./packages/openai-agents/src/index.ts'),
  },
  { find: /^@toolwaves\/restate$/, replacement: here('./packages/restate/src/index.ts') },
];

/**
 * The naming rule of the split: a test file that starts processes of its own (servers, agents,
 * sandboxed or scripted commands) or waits in real time (leases running out, paused holders,
 * crash-restart rounds) is named `*.process.test.ts` and runs in the `processes` project; every
 * other file runs in its package's project. A run of the whole suite gathers them all in shared
 * projects instead (see `SHARED_PROJECTS`).
 */
const PROCESS_TESTS = '**/*.process.test.ts';

const project = (name: string, root: string) => ({
  extends: true as const,
  test: { name, root, include: ['test/**/*.test.ts'], exclude: [PROCESS_TESTS] },
});

/** Where each package's project (and the demo's) finds its tests. */
const PACKAGES = {
  planner: 'packages/planner',
  core: 'packages/core',
  'executor-rx': 'packages/executor-rx',
  'tools-fs': 'packages/tools-fs',
  bench: 'packages/bench',
  'ai-sdk': 'packages/ai-sdk',
  mcp: 'packages/mcp',
  otel: 'packages/otel',
  langchain: 'packages/langchain',
  'openai-agents': 'packages/openai-agents',
  redis: 'packages/redis',
  restate: 'packages/restate',
  demo: 'apps/demo',
};

/**
 * One redis-server for the redis tests of a project (root `.`); skipped with one line when it
 * is not installed.
 */
const REDIS_SETUP = './packages/redis/test/global-setup.ts';

/**
 * The ai-sdk tests once more against AI SDK 7 (the peer range is `^6 || ^7`): `ai` resolves to
 * the `ai-v7` dev dependency (`npm:ai@^7`) of @toolwaves/ai-sdk.
 */
const aiSdkV7 = {
  ...project('ai-sdk-v7', `./${PACKAGES['ai-sdk']}`),
  resolve: {
    alias: [
      { find: /^ai\/test$/, replacement: 'ai-v7/test' },
      { find: /^ai$/, replacement: 'ai-v7' },
    ],
  },
};

/** One project per package, for a command line that picks some (`--project redis`). */
const packageProjects = [
  ...Object.entries(PACKAGES).map(([name, folder]) => {
    const { test, ...rest } = project(name, `./${folder}`);
    // The redis project's root is its package: the same setup, from there.
    return {
      ...rest,
      test: name === 'redis' ? { ...test, globalSetup: ['./test/global-setup.ts'] } : test,
    };
  }),
  aiSdkV7,
];

/**
 * A run of the whole suite puts the tests in four projects instead of fifteen: a worker keeps
 * the modules it loaded only from one file to the next of the same project, so each project costs
 * each worker a fresh import of the shared graph (zod, rxjs, inversify, the AI SDK, the packages'
 * sources) and the main process a transform of it. `packages` holds every package's tests but
 * the process tests (`*.process.test.ts`, the demo's too), which run in forked workers in
 * `processes` (see `wholeRunProcesses`). `agents-and-demo` holds the tests that load the OpenAI
 * Agents SDK (the openai-agents package and the demo): importing it starts a trace-export loop
 * (a 5 s timer, forever) that the fake timers of the other packages' tests would run without
 * end. `ai-sdk-v7` stays apart (`ai` resolves elsewhere there).
 */
const SHARED_PROJECTS: Record<string, readonly (keyof typeof PACKAGES)[]> = {
  packages: [
    'planner',
    'core',
    'executor-rx',
    'tools-fs',
    'bench',
    'ai-sdk',
    'mcp',
    'otel',
    'langchain',
    'redis',
    'restate',
  ],
  'agents-and-demo': ['openai-agents', 'demo'],
};

const unshared = Object.keys(PACKAGES).filter(
  (name) => !Object.values(SHARED_PROJECTS).some((members) => members.includes(name as never)),
);
if (unshared.length > 0) {
  // A package left out here would silently not run in the whole suite.
  throw new Error(`vitest.config.ts: no shared project runs the tests of ${unshared.join(', ')}`);
}

/**
 * The files that start hundreds of short processes (`/bin/sh`, `bwrap`, `git`) without being
 * process tests by name: in a whole run they join the process tests in `processes`, in forked
 * workers (see `wholeRunProcesses`).
 */
const SPAWNING_FILES = [
  'packages/tools-fs/test/run-command-table.test.ts',
  'packages/tools-fs/test/run-command-sandbox.process.test.ts',
  'packages/tools-fs/test/run-command.process.test.ts',
  'packages/tools-fs/test/shell-words.property.process.test.ts',
  'packages/tools-fs/test/git-repository.process.test.ts',
];

/** Where the process tests are, every package's and the demo's. */
const PROCESS_TEST_FILES = [`packages/*/test/${PROCESS_TESTS}`, `apps/*/test/${PROCESS_TESTS}`];

const sharedProjects = Object.entries(SHARED_PROJECTS).map(([name, members]) => ({
  extends: true as const,
  test: {
    name,
    root: '.',
    include: members.map((member) => `${PACKAGES[member]}/test/**/*.test.ts`),
    exclude: name === 'packages' ? [...SPAWNING_FILES, PROCESS_TESTS] : [PROCESS_TESTS],
    ...(name === 'packages' ? { globalSetup: [REDIS_SETUP] } : {}),
  },
}));

/** Whether the command line picks projects (`--project redis`, `--project=redis`). */
const picksProjects = process.argv.some(
  (arg) => arg === '--project' || arg.startsWith('--project='),
);

/**
 * How long each file took in a recorded run (`pnpm test:durations` writes it), for a run where
 * vitest's own cache has no time for a file: a fresh clone, as in CI, would otherwise order the
 * files by size and start the ones that wait longest last. Only the order depends on it.
 */
const RECORDED_DURATIONS: Record<string, number | undefined> = JSON.parse(
  readFileSync(here('./test-support/file-durations.json'), 'utf8'),
);

/**
 * The recorded time of a file by its path alone, whichever project ran it then (a file keeps its
 * cost when a change of the projects renames its key).
 */
const RECORDED_BY_PATH = new Map(
  Object.entries(RECORDED_DURATIONS).map(([key, duration]) => [
    key.slice(key.indexOf(':') + 1),
    duration,
  ]),
);

/**
 * Runs the files project by project, so that a worker goes on with the next file of its project
 * with the modules it has already loaded: vitest keeps a worker (and its module cache, with
 * `isolate: false`) only when the next file in its queue belongs to the same project, and starts
 * a fresh worker, which imports the whole graph again (zod, rxjs, inversify, the AI SDK, the
 * packages' barrels), for a file of another project. Ordering files across projects by duration
 * alone made nearly every file start in a fresh worker.
 *
 * `processes` comes first: its files mostly wait on their children (paused holders, leases
 * running out, services restarting), and started last they made the run end on them with the
 * cores idle; first, the workers that finish them go on with the other projects' files while the
 * long ones still wait. Then the projects with the least time in the last run come first and the
 * largest last (in a whole run: `ai-sdk-v7`, `agents-and-demo`, then `packages`), so the run ends
 * on the many short files of the largest project, which even out the workers' ends; it ended on
 * the demo's tests, a fresh import of the OpenAI Agents SDK in each worker, with the cores half
 * idle. Inside a project the longest files go first (where vitest has no time of its own for a
 * file, the recorded one, then its size): the process tests that wait longest start beside the
 * crash rounds and sandbox properties, which keep the cores busy meanwhile.
 */
class ProjectByProject extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const path = (file: TestSpecification) => relative(config.root, file.moduleId);
    const key = (file: TestSpecification) => `${file.project.name}:${path(file)}`;
    const cost = (file: TestSpecification) => [
      cache.getFileTestResults(key(file))?.duration ??
        RECORDED_DURATIONS[key(file)] ??
        RECORDED_BY_PATH.get(path(file)) ??
        0,
      cache.getFileStats(key(file))?.size ?? 0,
    ];
    const projectCost = new Map<string, number[]>();
    for (const file of files) {
      const sum = projectCost.get(file.project.name) ?? [0, 0];
      const [duration = 0, size = 0] = cost(file);
      projectCost.set(file.project.name, [(sum[0] ?? 0) + duration, (sum[1] ?? 0) + size]);
    }
    const weight = (file: TestSpecification): (number | string)[] => {
      const [projectDuration = 0, projectSize = 0] = projectCost.get(file.project.name) ?? [];
      const [duration = 0, size = 0] = cost(file);
      return [
        file.project.config.sequence.groupOrder,
        file.project.name === 'processes' ? 0 : 1,
        projectDuration,
        projectSize,
        file.project.name,
        -duration,
        -size,
      ];
    };
    return [...files].sort((a, b) => {
      const [wa, wb] = [weight(a), weight(b)];
      const i = wa.findIndex((value, j) => value !== wb[j]);
      if (i === -1) return 0;
      const [x, y] = [wa[i], wb[i]];
      return typeof x === 'number' && typeof y === 'number'
        ? x - y
        : String(x).localeCompare(String(y));
    });
  }
}

/**
 * Every package's process tests, in one project of their own, in forked workers; the redis files
 * use the redis-server of the redis global setup (one for this project). A process started from
 * a worker thread is forked from the whole test process (every worker's heap, more than a
 * gigabyte), beside the other workers' busy threads: `spawn` blocked 2.3 ms in a plain Node
 * process and 20.8 ms with three busy threads beside it, the copy of the page tables and the
 * write faults on every page the parent touched afterwards (copy-on-write) adding to each of the
 * hundreds of starts of a run; a forked worker is a process of its own, with one worker's heap.
 * With the process tests in threads (in `packages`) the command table took 21–35 s in a worker
 * thread against 8 s in a forked worker, on a loaded machine. Whole runs, alternated, on a
 * 2-core machine where a page fault costs 12–16 µs, in six pairs run back to back: 2.13–2.16
 * million minor faults with the process tests here against 2.25–2.30 million in `packages`
 * (`/usr/bin/time`), 1.7–6.6 s less system time in every pair, and by vitest's count faster in
 * five pairs (by 0.8–6.0 s) and slower in one (by 10 s). The machine's own speed moved more than
 * that from one pair to the next (94–117 s a run).
 */
const processesProject = {
  extends: true as const,
  test: {
    name: 'processes',
    root: '.',
    include: PROCESS_TEST_FILES,
    globalSetup: [REDIS_SETUP],
    pool: 'forks' as const,
    execArgv: [OPTIMIZE_LATER, KEEP_BYTECODE],
  },
};

/**
 * `processes` in a whole run: the process tests and the files that start hundreds of short
 * processes ({@link SPAWNING_FILES}). It runs first (see `ProjectByProject`).
 */
const wholeRunProcesses = {
  ...processesProject,
  test: { ...processesProject.test, include: [...PROCESS_TEST_FILES, ...SPAWNING_FILES] },
};

export default defineConfig({
  resolve: { alias },
  test: {
    // Property tests run thousands of generated cases; on a loaded 2-core runner 5 s is too tight.
    testTimeout: 30_000,
    // Where the time went: every test file re-imported the shared graph (zod, rxjs, inversify,
    // the AI SDK, the packages' barrels) in a fresh process, one file after another (vitest's
    // default on 2 cores is a single worker). Worker threads, one module cache per worker (tests
    // leave no global state behind; module mocks load their subject afresh), and a worker per core,
    // plus one: a worker running a process test mostly waits on its children (a paused holder,
    // a lease running out, a service restarting), and the others keep the cores busy meanwhile.
    // Not more: the property tests are CPU-bound, and each worker more slows every one of them.
    pool: 'threads',
    // Keeps what vite made of each source (TypeScript stripped, imports rewritten) on disk,
    // in `node_modules/.experimental-vitest-cache`, keyed by the file's content, its id and the
    // project's configuration: a later run transforms only what changed. A run after one that
    // filled it: 7.4 s of transforms against 25.1 s (vitest's summed count), 94.0 s against
    // 104.0 s, 176 s of CPU against 190 s. The first run after a fresh clone fills it.
    experimental: { fsModuleCache: true },
    isolate: false,
    maxWorkers: Math.max(2, availableParallelism()) + 1,
    sequence: { sequencer: ProjectByProject },
    projects: picksProjects
      ? [processesProject, ...packageProjects]
      : [...sharedProjects, wholeRunProcesses, aiSdkV7],
  },
});
