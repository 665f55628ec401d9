import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ToolCall, ToolResult } from '@toolwaves/core';
import { describeCall } from './describe-call.js';
import { bundleDurableService, type DurableServiceBundle } from './durable-service-bundle.js';
import { CRASH_POINTS, durableTurn } from './durable-turn.js';
import { formatTable } from './format-table.js';
import { freePort, type RestateDevServer, startRestateDevServer } from './restate-dev-server.js';
import type { SessionWorkspace } from './sample-workspace.js';
import type { TerminalStyle } from './terminal-style.js';
import { type CallFate, callFate, readToolRuns } from './tool-run-log.js';

const SERVICE = fileURLToPath(new URL('./durable-service.ts', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
/** The crashes of the turn (see `crashWhen` below): each needs a standby. */
const CRASHES = 2;
const LOADED = 'durable service loaded';
const READY = 'durable service ready';

/** Options of {@link runDurableDemo}. */
export interface DurableDemoOptions {
  readonly workspace: SessionWorkspace;
  readonly latency: number;
  readonly say: (line: string) => void;
  readonly style: TerminalStyle;
}

const FATES: Record<CallFate, string> = {
  journal: 'answered from the journal (finished before a crash, not run again)',
  rerun: 'ran again (a crash cut it off; it may run twice)',
  unknown: 'outcome unknown (a crash cut it off; it may not run twice)',
  after: 'ran after a restart',
  once: 'ran once',
};

/** A service process, loaded and waiting for its turn to listen (`durable-service.ts`). */
interface Standby {
  readonly child: ChildProcess;
  readonly loaded: Promise<void>;
  readonly ready: Promise<void>;
}

/**
 * Loads a service process, node itself (no wrapper process), so a SIGKILL kills the process that
 * runs the tools: the service bundled for this run ({@link bundleDurableService}), else its
 * source under tsx's loader. It waits, loaded, until {@link takeOver} tells it to listen: the
 * demo keeps the processes it will need after each crash loaded from the start, as a supervisor
 * with a warm standby would, so a restart costs a bind, not the seconds of a start.
 */
function loadService(options: {
  port: number;
  root: string;
  log: string;
  latency: number;
  bundle: DurableServiceBundle | undefined;
}) {
  const args = [String(options.port), options.root, options.log, String(options.latency)];
  const loader = () => pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const command =
    options.bundle === undefined
      ? ['--import', loader(), SERVICE, ...args]
      : [options.bundle.file, ...args];
  const child = spawn(process.execPath, command, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, TSX_TSCONFIG_PATH: TSCONFIG },
  });
  let output = '';
  const seen = (line: string) =>
    new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', () => {
        if (output.includes(line)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the service exited (${code}): ${output}`)));
    });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const standby: Standby = { child, loaded: seen(LOADED), ready: seen(READY) };
  standby.loaded.catch(() => undefined);
  standby.ready.catch(() => undefined);
  return standby;
}

/** Tells a loaded standby to listen on the service's port; resolves once it does. */
async function takeOver(standby: Standby): Promise<ChildProcess> {
  await standby.loaded;
  standby.child.stdin?.write('listen\n');
  await standby.ready;
  return standby.child;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/**
 * `pnpm demo --durable`: one turn of eight calls on a local Restate server (from `pnpm install`).
 * The service process is SIGKILLed twice in the middle of the turn (while a search runs, then
 * while the project check runs) and started again; Restate replays the turn. Then, per call:
 * answered from the journal, ran again, answered "outcome unknown", or ran after a restart; and
 * the files as they ended up.
 */
export async function runDurableDemo(options: DurableDemoOptions): Promise<number> {
  const { say, style, workspace } = options;
  const calls = durableTurn(workspace.dir);
  const scratch = mkdtempSync(join(tmpdir(), 'toolwaves-durable-'));
  const log = join(scratch, 'tool-runs.log');
  const port = await freePort();
  const bundle = bundleDurableService();
  const service = { port, root: workspace.root, log, latency: options.latency, bundle };
  // The first process and one standby per crash load while the server starts.
  const standbys = Array.from({ length: CRASHES + 1 }, () => loadService(service));
  let current: ChildProcess | undefined;
  let server: RestateDevServer | undefined;
  try {
    say(style.bold('toolwaves demo --durable') + style.dim(' · a turn on Restate, crashed twice'));
    server = await startRestateDevServer();
    say(style.dim(`restate-server: ingress ${server.ingressUrl}, admin ${server.adminUrl}`));
    current = await takeOver(standbys.shift() as Standby);
    await server.register(`http://127.0.0.1:${port}`);
    say(style.dim(`service: pid ${current.pid}, eager, 4 at once; the turn's calls:`));
    for (const call of calls) say(`  ${call.id}  ${describeCall(call)}`);
    const answer = fetch(`${server.ingressUrl}/demo/turn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(calls),
    }).then(async (response) => {
      const body = await response.text();
      if (!response.ok) throw new Error(`the turn failed (${response.status}): ${body}`);
      return JSON.parse(body) as ToolResult[];
    });
    let finished = false;
    const settle = () => {
      finished = true;
    };
    answer.then(settle, settle);

    const killed: number[] = [];
    const crashWhen = async (ready: () => boolean, what: string) => {
      while (!finished && !ready()) await new Promise((resolve) => setTimeout(resolve, 5));
      if (finished || current === undefined) {
        say(style.yellow(`the turn finished before the crash point (${what}): try --latency 1`));
        return;
      }
      const pid = current.pid ?? 0;
      await kill(current);
      killed.push(pid);
      const runs = readToolRuns(log).filter((run) => run.pid === pid);
      const cut = runs
        .filter((run) => run.e === 'start')
        .filter((start) => !runs.some((run) => run.e === 'end' && run.call === start.call))
        .map((start) => start.call);
      say(
        style.red(`✗ SIGKILL pid ${pid} ${what}`) +
          style.dim(` · running then: ${cut.length === 0 ? 'none' : cut.join(', ')}`),
      );
      current = await takeOver(standbys.shift() as Standby);
      say(
        style.green(`↻ service started again: pid ${current.pid}`) +
          style.dim(' · a standby, loaded ahead, now listens; Restate replays the turn'),
      );
    };
    const logged = (e: 'start' | 'end', call: string) => () =>
      readToolRuns(log).some((run) => run.e === e && run.call === call);
    const { whileRunning, afterFinished, whileChecking } = CRASH_POINTS;
    await crashWhen(
      () => logged('end', afterFinished)() && logged('start', whileRunning)(),
      `while ${whileRunning} runs, after ${afterFinished} finished`,
    );
    await crashWhen(logged('start', whileChecking), `while ${whileChecking} runs`);
    const results = await answer;
    say('');
    say(durableReport({ calls, results, runs: readToolRuns(log), killed }));
    for (const file of ['src/price.ts', 'src/discount.ts']) {
      const path = join(workspace.root, workspace.dir, file);
      say('');
      say(style.bold(`${file} now:`));
      say(style.dim(readFileSync(path, 'utf8').trimEnd()));
    }
    return 0;
  } finally {
    for (const child of [current, ...standbys.map((standby) => standby.child)]) {
      if (child !== undefined) await kill(child);
    }
    await server?.stop();
    bundle?.remove();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The table of calls: what each answered and how (journal, re-run, outcome unknown...). */
export function durableReport(options: {
  readonly calls: readonly ToolCall[];
  readonly results: readonly ToolResult[];
  readonly runs: ReturnType<typeof readToolRuns>;
  readonly killed: readonly number[];
}): string {
  const rows = options.calls.map((call, i) => {
    const result = options.results[i] ?? { isError: true, content: 'no result' };
    const runs = options.runs.filter((run) => run.e === 'start' && run.call === call.id).length;
    const fate = callFate({ callId: call.id, result, runs: options.runs, killed: options.killed });
    const first = (result.content.trim().split('\n')[0] ?? '').replace(/\s+/g, ' ');
    const answer = first.length > 48 ? `${first.slice(0, 47)}…` : first;
    return [call.id, describeCall(call), String(runs), FATES[fate], answer];
  });
  return formatTable({
    header: ['call', 'tool', 'runs', 'what happened', 'answer'],
    rows,
    alignRight: [2],
  });
}
