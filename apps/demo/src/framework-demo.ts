import { Dispatcher } from '@toolwaves/executor-rx';
import type { CliOptions } from './cli-options.js';
import { DemoError } from './demo-error.js';
import { demoRegistry } from './demo-registry.js';
import { formatTable } from './format-table.js';
import { compareFrameworkSchedules, type FrameworkComparisonRow } from './framework-comparison.js';
import { type FrameworkName, runFrameworkSession } from './framework-session.js';
import { frameworkCallLabels } from './framework-session-options.js';
import { type FrameworkCall, FrameworkView } from './framework-view.js';
import type { SessionWorkspace } from './sample-workspace.js';
import { scriptedSession } from './scripted-session.js';
import type { TerminalStyle } from './terminal-style.js';

/** What `--framework NAME --json` prints. */
export interface FrameworkReport {
  readonly framework: FrameworkName;
  readonly workspace: string;
  readonly turns: number;
  readonly finalText: string;
  readonly wallMs: number;
  /** Every call, in the order they ended. */
  readonly calls: readonly FrameworkCall[];
  /** The same session one call at a time and with toolwaves, side by side (with `--compare`; else none). */
  readonly comparison: readonly FrameworkComparisonRow[];
}

const HOW: Record<FrameworkName, string> = {
  langchain: 'LangChain createAgent + toolwavesMiddleware, fakeModel',
  'openai-agents': 'OpenAI Agents SDK Runner + withToolwaves, ScriptedModel',
  'ai-sdk': 'AI SDK generateText + withToolwaves, MockLanguageModelV3',
};

/**
 * `pnpm demo --framework NAME`: the scripted session in that framework's own agent loop, on its
 * own fake model replaying the scripted turns; the framework runs the demo's tools, toolwaves
 * decides when each call starts (eager, under `--max-concurrency`).
 */
export async function runFrameworkDemo(context: {
  readonly framework: FrameworkName;
  readonly options: CliOptions;
  readonly say: (line: string) => void;
  readonly style: TerminalStyle;
  readonly workspace: SessionWorkspace;
}): Promise<number> {
  const { framework, options, say, style, workspace } = context;
  const registry = demoRegistry({ root: workspace.root, latency: options.latency });
  const stop = new AbortController();
  process.once('SIGINT', () => {
    stop.abort(new DemoError({ code: 'interrupted', message: 'interrupted' }));
  });
  const turns = scriptedSession(workspace.dir);
  const view = new FrameworkView({ write: say, style, labels: frameworkCallLabels(turns) });
  const dispatcher = new Dispatcher({
    registry,
    mode: 'eager',
    maxConcurrency: options.maxConcurrency,
    instrumentation: view.instrumentation,
  });
  say(style.bold('toolwaves demo') + style.dim(` · framework: ${framework} (${HOW[framework]})`));
  say(style.dim(`workspace: ${workspace.root}${workspace.dir === '.' ? '' : `/${workspace.dir}`}`));
  say(
    style.dim(
      `the framework runs the tools; toolwaves decides when each call starts · max concurrency: ${options.maxConcurrency} · latency ×${options.latency}`,
    ),
  );
  const started = performance.now();
  const finalText = await runFrameworkSession(framework, {
    registry,
    dispatcher,
    turns,
    signal: stop.signal,
    onTurn: (turn, text, calls) => {
      say('');
      say(`${style.bold(`Turn ${turn}`)} · ${style.cyan(text)}`);
      say(style.dim(`  the model asked for ${calls} call(s)`));
    },
  });
  const wallMs = performance.now() - started;
  const errors = view.calls.filter((call) => call.outcome !== 'ok').length;
  say('');
  say(style.bold('Model: ') + finalText);
  say(
    style.dim(
      `session: ${turns.length} turn(s), ${view.calls.length} call(s) (${errors} error(s)) in ${Math.round(wallMs)} ms through ${framework}'s own loop`,
    ),
  );
  const comparison = options.compare
    ? await compareFrameworkSchedules({
        framework,
        maxConcurrency: options.maxConcurrency,
        latency: options.latency,
        signal: stop.signal,
      })
    : [];
  const oneAtATime = comparison.find((row) => row.maxConcurrency === 1);
  if (comparison.length > 0) {
    say('');
    say(
      style.bold(`The same session in ${framework}'s loop, three schedules`) +
        style.dim(' (fresh workspaces, measured side by side)'),
    );
    say(
      formatTable({
        header: [
          'schedule',
          'at once',
          'wall-clock',
          'vs one at a time',
          'tool errors',
          'price.ts edits',
        ],
        rows: comparison.map((row) => [
          row.strategy,
          Number.isFinite(row.maxConcurrency) ? String(row.maxConcurrency) : 'all',
          `${Math.round(row.wallMs)} ms`,
          oneAtATime === undefined ? '-' : `${(oneAtATime.wallMs / row.wallMs).toFixed(2)}×`,
          String(row.errors),
          row.editsLanded ? 'both landed' : 'one lost',
        ]),
        alignRight: [1, 2, 3, 4],
      }),
    );
  }
  if (options.json) {
    const report: FrameworkReport = {
      framework,
      workspace: workspace.root,
      turns: turns.length,
      finalText,
      wallMs,
      calls: view.calls,
      comparison,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  }
  return 0;
}
