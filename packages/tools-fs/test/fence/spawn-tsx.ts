import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
/** tsx as a loader in the child's own node process (its CLI would start a second process). */
const TSX_LOADER = pathToFileURL(require.resolve('tsx')).href;
/** The package's tsconfig (decorators), for tsx in the child. */
const TSCONFIG = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));

/** The command line that runs a TypeScript file of this folder under node with tsx. */
export function tsxCommand(script: string, args: readonly string[]): string[] {
  const path = fileURLToPath(new URL(`./${script}`, import.meta.url));
  return [process.execPath, '--import', TSX_LOADER, path, ...args];
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

/** Starts `command` (e.g. a {@link tsxCommand}, maybe behind `unshare`), its stdout piped. */
export function startChild(command: readonly string[]): Child {
  const [file = '', ...args] = command;
  const child = spawn(file, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TSX_TSCONFIG_PATH: TSCONFIG },
  });
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
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
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
