import { realpath, rm } from 'node:fs/promises';
import { DispatchError, Dispatcher } from '@toolwaves/executor-rx';
import { runAgentLoop, type SessionRecord } from './agent-loop.js';
import { type CliOptions, HELP_TEXT, PLANNER_NAMES, parseCliOptions } from './cli-options.js';
import { type ComparisonRow, comparePlanners } from './compare-planners.js';
import { compareStreaming, type StreamingRow } from './compare-streaming.js';
import { DemoError } from './demo-error.js';
import { demoRegistry } from './demo-registry.js';
import { formatTable } from './format-table.js';
import { LiveView } from './live-view.js';
import type { Model } from './model.js';
import { OpenAIModel } from './openai-model.js';
import { plannerByName } from './planner-by-name.js';
import { prepareWorkspace, type SessionWorkspace } from './sample-workspace.js';
import { ScriptedModel } from './scripted-model.js';
import { type ScriptedTurn, scriptedSession } from './scripted-session.js';
import { sessionReport } from './session-report.js';
import { type TerminalStyle, terminalStyle } from './terminal-style.js';
import { TurnTrace } from './turn-trace.js';

const OPENAI_TASK =
  'Explore this small TypeScript project, fix the rounding TODO in src/price.ts, then check the project.';

async function main(argv: readonly string[]): Promise<number> {
  const options = parseCliOptions(argv);
  if (options.help) {
    process.stdout.write(`${HELP_TEXT}\n`);
    return 0;
  }
  const style = terminalStyle({ stream: process.stdout, env: process.env });
  const say = options.json ? () => {} : (line: string) => process.stdout.write(`${line}\n`);
  const workspace = await prepareWorkspace({ workspace: options.workspace });
  const temporary = options.workspace === undefined && !options.keepWorkspace;
  try {
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
  const model = chooseModel({ registry, dir: workspace.dir, options, signal: stop.signal });
  const tracing = options.trace === undefined ? undefined : new TurnTrace();
  const dispatcher = new Dispatcher({
    registry,
    mode: options.mode,
    maxConcurrency: options.maxConcurrency,
    planner: plannerByName(options.planner),
    ...(tracing === undefined ? {} : { instrumentation: tracing.instrumentation }),
  });

  say(style.bold('toolwaves demo') + style.dim(` · model: ${model.label}`));
  say(style.dim(`workspace: ${workspace.root}${workspace.dir === '.' ? '' : `/${workspace.dir}`}`));
  say(
    style.dim(
      `${options.stream ? 'streamed turns: each call starts once written and clear of the calls it conflicts with' : `whole turns in waves, planner: ${options.planner}`} · mode: ${options.mode} · max concurrency: ${options.maxConcurrency} · latency ×${options.latency}`,
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
  await tracing?.report({ file: options.trace?.file, say });

  const progress = (line: string) => {
    if (!options.json) process.stderr.write(`${line}\n`);
  };
  const streaming = await compareTurns(options, session, workspace.dir, stop.signal, progress);
  if (streaming.length > 0) {
    say('');
    say(
      style.bold('Whole turns against streamed turns') +
        style.dim(
          ` (the model writing at ${options.tokensPerSecond} tokens/s, measured side by side)`,
        ),
    );
    const whole = streaming[0];
    say(
      formatTable({
        header: ['strategy', 'turn latency', 'vs whole turn', 'tool time after writing'],
        rows: streaming.map((row) => [
          row.strategy,
          `${Math.round(row.latencyMs)} ms`,
          whole === undefined || row.latencyMs === 0
            ? '-'
            : `${(whole.latencyMs / row.latencyMs).toFixed(2)}×`,
          `${Math.round(row.afterWritingMs)} ms`,
        ]),
        alignRight: [1, 2, 3],
      }),
    );
    say(
      style.dim(
        '  turn latency: first tool-call token → last result, summed over the turns; the model wrote for ' +
          `${Math.round(whole?.writingMs ?? 0)} ms in all`,
      ),
    );
  }
  const comparison = await compare(options, session, workspace.dir, stop.signal, progress);
  if (comparison.length > 0) {
    say('');
    say(
      style.bold('The same session under each planner') +
        style.dim(' (whole turns at once, parallel mode, measured side by side)'),
    );
    say(
      formatTable({
        header: ['planner', 'calls', 'waves', 'wall-clock', 'speedup vs sequential'],
        rows: comparison.map((row) => [
          row.planner,
          String(row.calls),
          String(row.waves),
          `${Math.round(row.wallMs)} ms`,
          `${row.speedup.toFixed(2)}×`,
        ]),
        alignRight: [1, 2, 3, 4],
      }),
    );
  }
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify(sessionReport({ options, model: model.label, workspace, session, comparison, streaming }), null, 2)}\n`,
    );
  }
  return 0;
}

function chooseModel(context: {
  registry: ReturnType<typeof demoRegistry>;
  dir: string;
  options: CliOptions;
  signal: AbortSignal;
}): Model {
  const { registry, dir, options, signal } = context;
  const apiKey = process.env.OPENAI_API_KEY;
  if (apiKey !== undefined && apiKey !== '') {
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
