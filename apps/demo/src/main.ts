import { realpath, rm, writeFile } from 'node:fs/promises';
import { DispatchError, Dispatcher } from '@toolwaves/executor-rx';
import { runAgentLoop, type SessionRecord } from './agent-loop.js';
import {
  type CliOptions,
  commandDir,
  HELP_TEXT,
  PLANNER_NAMES,
  parseCliOptions,
} from './cli-options.js';
import { type ComparisonRow, comparePlanners } from './compare-planners.js';
import { compareStreaming, type StreamingRow } from './compare-streaming.js';
import { formatPlannerComparison, formatStreamingComparison } from './comparison-view.js';
import { DemoError } from './demo-error.js';
import { demoRegistry } from './demo-registry.js';
import { callLabelsById } from './describe-call.js';
import { LiveView } from './live-view.js';
import type { Model } from './model.js';
import { plannerByName } from './planner-by-name.js';
import { prepareWorkspace, type SessionWorkspace } from './sample-workspace.js';
import { ScriptedModel } from './scripted-model.js';
import { type ScriptedTurn, scriptedSession } from './scripted-session.js';
import { sessionHeader } from './session-header.js';
import { sessionReport } from './session-report.js';
import { type TerminalStyle, terminalStyle } from './terminal-style.js';

const OPENAI_TASK =
  'Explore this small TypeScript project, fix the rounding TODO in src/price.ts, then check the project.';

async function main(argv: readonly string[]): Promise<number> {
  const options = parseCliOptions(argv, {
    cwd: commandDir({ env: process.env, cwd: process.cwd() }),
  });
  if (options.help) {
    process.stdout.write(`${HELP_TEXT}\n`);
    return 0;
  }
  const style = terminalStyle({ stream: process.stdout, env: process.env });
  const say = options.json ? () => {} : (line: string) => process.stdout.write(`${line}\n`);
  const workspace = await prepareWorkspace({ workspace: options.workspace });
  const temporary = options.workspace === undefined && !options.keepWorkspace;
  try {
    if (options.durable) {
      // loaded only for --durable: the default demo starts no Restate server
      const { runDurableDemo } = await import('./durable-demo.js');
      return await runDurableDemo({ workspace, latency: options.latency, say, style });
    }
    if (options.fleet !== undefined) {
      // loaded only for --fleet: the default demo needs no Redis
      const { runFleetDemo } = await import('./fleet-demo.js');
      return await runFleetDemo({
        url: options.fleet,
        latency: options.latency,
        workspace,
        say,
        style,
      });
    }
    if (options.framework !== undefined) {
      // loaded only for --framework: the default demo loads no agent framework
      const { runFrameworkDemo } = await import('./framework-demo.js');
      return await runFrameworkDemo({
        framework: options.framework,
        options,
        say,
        style,
        workspace,
      });
    }
    return await runDemo({ options, say, style, workspace });
  } finally {
    if (temporary) await rm(workspace.root, { recursive: true, force: true });
    else
      say(
        style.dim(
          `workspace kept: ${workspace.root}${workspace.dir === '.' ? '' : `/${workspace.dir}`}`,
        ),
      );
  }
}

async function runDemo(context: {
  options: CliOptions;
  say: (line: string) => void;
  style: TerminalStyle;
  workspace: SessionWorkspace;
}): Promise<number> {
  const { options, say, style, workspace } = context;
  const registry = demoRegistry({ root: workspace.root, latency: options.latency });
  const stop = new AbortController();
  process.once('SIGINT', () => {
    stop.abort(new DemoError({ code: 'interrupted', message: 'interrupted' }));
  });
  const model = await chooseModel({ registry, dir: workspace.dir, options, signal: stop.signal });
  // loaded only for --trace (and the openai SDK only for a real model): a quicker start
  const tracing =
    options.trace === undefined ? undefined : new (await import('./turn-trace.js')).TurnTrace();
  const dispatcher = new Dispatcher({
    registry,
    mode: options.mode,
    maxConcurrency: options.maxConcurrency,
    planner: plannerByName(options.planner),
    ...(tracing === undefined ? {} : { instrumentation: tracing.instrumentation }),
  });

  say(style.bold('toolwaves demo') + style.dim(` · model: ${model.label}`));
  say(style.dim(`workspace: ${workspace.root}${workspace.dir === '.' ? '' : `/${workspace.dir}`}`));
  const scripted = model instanceof ScriptedModel;
  say(
    style.dim(
      sessionHeader({
        ...options,
        tokensPerSecond: scripted ? options.tokensPerSecond : undefined,
      }),
    ),
  );
  const view = new LiveView({ write: say, style, root: await realpath(workspace.root) });
  const loop = () =>
    runAgentLoop({
      model,
      dispatcher,
      stream: options.stream,
      signal: stop.signal,
      onCallWritten: (written) => view.callWritten(written),
      onTurnWritten: (_turn, writing, calls) => view.turnWritten(writing, calls),
      onEvent: (event) => view.event(event),
    });
  const session = await (tracing === undefined ? loop() : tracing.within(loop));
  say('');
  say(style.bold('Model: ') + (session.finalText ?? '(no final words)'));
  say(style.dim(`session: ${session.turns.length} turn(s) in ${Math.round(session.wallMs)} ms`));
  await tracing?.report({ file: options.trace?.file, say, labels: callLabelsById(session.turns) });

  const progress = (line: string) => {
    if (!options.json) process.stderr.write(`${line}\n`);
  };
  const streaming = await compareTurns(options, session, workspace.dir, stop.signal, progress);
  if (streaming.length > 0) {
    say('');
    for (const line of formatStreamingComparison({
      rows: streaming,
      tokensPerSecond: options.tokensPerSecond,
      style,
    })) {
      say(line);
    }
  }
  const comparison = await compare(options, session, workspace.dir, stop.signal, progress);
  if (comparison.length > 0) {
    say('');
    for (const line of formatPlannerComparison({ rows: comparison, style })) say(line);
  }
  if (!options.compare) {
    say(
      style.dim(
        'pnpm demo --compare: measure whole turns in waves against streamed turns, and the four planners',
      ),
    );
  }
  if (options.json || options.jsonFile !== undefined) {
    const report = sessionReport({
      options,
      model: model.label,
      workspace,
      session,
      comparison,
      streaming,
    });
    const text = `${JSON.stringify(report, null, 2)}\n`;
    if (options.jsonFile === undefined) process.stdout.write(text);
    else {
      await writeFile(options.jsonFile, text);
      say(style.dim(`report: written to ${options.jsonFile} (JSON)`));
    }
  }
  return 0;
}

async function chooseModel(context: {
  registry: ReturnType<typeof demoRegistry>;
  dir: string;
  options: CliOptions;
  signal: AbortSignal;
}): Promise<Model> {
  const { registry, dir, options, signal } = context;
  const apiKey = process.env.OPENAI_API_KEY;
  if (apiKey !== undefined && apiKey !== '') {
    const { OpenAIModel } = await import('./openai-model.js');
    return new OpenAIModel({
      apiKey,
      baseURL: process.env.OPENAI_BASE_URL,
      model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini',
      registry,
      task: dir === '.' ? OPENAI_TASK : `${OPENAI_TASK} The project is in the folder ${dir}.`,
      signal,
    });
  }
  return new ScriptedModel({
    turns: scriptedSession(dir),
    tokensPerSecond: options.tokensPerSecond,
    signal,
  });
}

async function compareTurns(
  options: CliOptions,
  session: SessionRecord,
  dir: string,
  signal: AbortSignal,
  progress: (line: string) => void,
): Promise<StreamingRow[]> {
  if (!options.compare) return [];
  return compareStreaming({
    turns: replayable(session),
    dir,
    maxConcurrency: options.maxConcurrency,
    latency: options.latency,
    tokensPerSecond: options.tokensPerSecond,
    signal,
    onProgress: (strategy, done, total) =>
      progress(`comparing whole and streamed turns: ${done + 1}/${total} (${strategy})...`),
  });
}

/** The session's turns as a script to replay. */
function replayable(session: SessionRecord): ScriptedTurn[] {
  return session.turns.map((turn) => ({
    text: turn.text ?? '',
    calls: turn.calls.map(({ name, input }) => ({ name, input })),
  }));
}

async function compare(
  options: CliOptions,
  session: SessionRecord,
  dir: string,
  signal: AbortSignal,
  progress: (line: string) => void,
): Promise<ComparisonRow[]> {
  if (!options.compare) return [];
  return comparePlanners({
    turns: replayable(session),
    dir,
    planners: ['sequential', ...PLANNER_NAMES.filter((name) => name !== 'sequential')],
    maxConcurrency: options.maxConcurrency,
    latency: options.latency,
    signal,
    onProgress: (planner, done, total) =>
      progress(`comparing planners: ${done + 1}/${total} (${planner})...`),
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof DispatchError && error.code === 'cancelled') {
      process.stderr.write('\ntoolwaves demo: interrupted; the running calls were stopped.\n');
      process.exitCode = 130;
      return;
    }
    if (error instanceof DemoError) {
      process.stderr.write(`toolwaves demo: ${error.message}\n`);
      process.exitCode = 2;
      return;
    }
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stderr.write(`toolwaves demo failed: ${message}\n`);
    process.exitCode = 1;
  },
);
