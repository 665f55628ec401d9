import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, buildSync } from 'esbuild';
import { cachedBundle } from '../../../../test-support/cached-bundle.js';
import { nodeBundleOptions } from '../../../../test-support/node-bundle-options.js';

/** The package's tsconfig (decorators, the workspace's sources by path). */
const TSCONFIG = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
// Inside the package's node_modules: the bundles' own dependencies resolve from there.
const OUT_DIR = fileURLToPath(new URL('../../node_modules/.cache/fence-tests/', import.meta.url));

/**
 * A script of this folder bundled into one ES module: a child loads it in a tenth of the CPU time
 * tsx takes to load and compile the package's sources, and the fence tests start a dozen
 * children. Built once and kept while its sources are unchanged (`cachedBundle`).
 */
function bundled(script: string): string {
  const options: BuildOptions = nodeBundleOptions({
    entry: fileURLToPath(new URL(`./${script}`, import.meta.url)),
    tsconfig: TSCONFIG,
  });
  return cachedBundle({
    name: script.replace(/\.ts$/, ''),
    outDir: OUT_DIR,
    options,
    build: buildSync,
  });
}

/** The command line that runs a TypeScript file of this folder under node (bundled first). */
export function scriptCommand(script: string, args: readonly string[]): string[] {
  return [process.execPath, bundled(script), ...args];
}

/** A child started by {@link startChild}: its process, its exit, its output so far. */
export interface Child {
  readonly process: ChildProcess;
  readonly exited: Promise<number | null>;
  /** Resolves when the child printed `line` (a whole line). */
  printed(line: string): Promise<void>;
  output(): string;
}

const started: ChildProcess[] = [];

/** Starts `command` (e.g. a {@link scriptCommand}, maybe behind `unshare`), its stdout piped. */
export function startChild(command: readonly string[]): Child {
  const [file = '', ...args] = command;
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let out = '';
  const waiting: { line: string; resolve: () => void }[] = [];
  const look = () => {
    for (const w of waiting.splice(0)) {
      if (out.split('\n').includes(w.line)) w.resolve();
      else waiting.push(w);
    }
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    look();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  // 'close', not 'exit': at 'exit' the last lines a child printed may still be in the pipe
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return {
    process: child,
    exited,
    output: () => out,
    printed: (line) =>
      new Promise<void>((resolve, reject) => {
        waiting.push({ line, resolve });
        look();
        exited.then((code) => reject(new Error(`exited (${code}) before "${line}": ${out}`)));
      }),
  };
}

/** Kills every child started by {@link startChild} (resumed first, so a stopped one dies too). */
export async function killChildren(): Promise<void> {
  for (const child of started.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited;
  }
}

/** Whether `command` runs here (exit 0): e.g. `unshare --pid` needs privileges a container may lack. */
export function works(command: readonly string[]): boolean {
  const [file = '', ...args] = command;
  return spawnSync(file, args, { stdio: 'ignore' }).status === 0;
}
