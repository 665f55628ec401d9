import { spawn } from 'node:child_process';
import { ToolClass, type ToolContext, type ToolOutput, tool } from '@toolwaves/core';
import { inject } from 'inversify';
import { z } from 'zod';
import { classifyCommand } from './classify-command.js';
import { FS_READ_CACHE } from './fs-read-cache-token.js';
import { FS_WORKSPACE } from './fs-workspace-token.js';
import { type FsAccess, pathAccess } from './path-access.js';
import type { ReadCache } from './read-cache.js';
import type { Workspace } from './workspace.js';

/** `run_command`'s timeout when the call gives none, ms. */
export const RUN_COMMAND_DEFAULT_TIMEOUT_MS = 120_000;
/** The longest timeout a call may ask for, ms. */
export const RUN_COMMAND_MAX_TIMEOUT_MS = 600_000;
/** Most characters of output (stdout and stderr, interleaved) `run_command` answers with. */
export const RUN_COMMAND_MAX_OUTPUT_CHARS = 30_000;

/** Input of `run_command`. */
export const runCommandInput = z.object({
  command: z.string().min(1).describe('The shell command, run by /bin/sh in the workspace root.'),
  timeoutMs: z
    .number()
    .int()
    .min(1)
    .max(RUN_COMMAND_MAX_TIMEOUT_MS)
    .optional()
    .describe(`Stop the command after this many ms. Default ${RUN_COMMAND_DEFAULT_TIMEOUT_MS}.`),
});

/** Input of `run_command`. */
export type RunCommandInput = z.infer<typeof runCommandInput>;

/**
 * The environment `run_command` passes, and nothing else of the host's: `PATH` (the host's),
 * `HOME` (the workspace root), `LANG=C.UTF-8`, `TERM=dumb`, `NO_COLOR=1`, `GIT_PAGER=cat`,
 * `PAGER=cat`. Secrets in the host's environment do not reach the command.
 */
export function runCommandEnvironment(root: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: root,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
  };
}

/**
 * `run_command` (opt-in: `fsToolsModule({ root, runCommand: true })`): runs a shell command
 * with `/bin/sh -c` in the workspace root, with the environment of
 * {@link runCommandEnvironment}, no standard input, a timeout (`timeoutMs`, default 2 min,
 * at most 10; the whole process group is killed) and the output capped at 30 000 characters.
 * Answers the output and the exit code; a non-zero exit, a signal or the timeout is a soft
 * error. It is NOT a sandbox: the command can read and write anything the process may.
 *
 * Declarations from {@link classifyCommand}: a pipeline of known read-only programs is
 * concurrency-safe and reads the canonical keys of the paths it names; anything else (or a
 * path outside the workspace) is not concurrency-safe, so it runs alone. After a command that
 * was not read-only, the read cache is cleared (it may have changed any file).
 *
 * @example
 * ```ts
 * { name: 'run_command', input: { command: 'git status --short' } }
 * // " M src/a.ts\n[exit code 0]"
 * ```
 * @see classifyCommand
 */
@tool({
  name: 'run_command',
  description:
    'Run a shell command in the workspace root (/bin/sh -c). Answers its output (stdout and stderr) and exit code. Read-only commands (ls, cat, grep, git status, …) may run alongside other reads.',
  input: runCommandInput,
})
export class RunCommandTool extends ToolClass {
  constructor(
    @inject(FS_WORKSPACE) private readonly workspace: Workspace,
    @inject(FS_READ_CACHE) private readonly cache: ReadCache,
  ) {
    super();
  }

  isConcurrencySafe(input: RunCommandInput): boolean {
    return this.#reads(input) !== undefined;
  }

  access(input: RunCommandInput): readonly FsAccess[] {
    return this.#reads(input) ?? [];
  }

  #reads(input: RunCommandInput): readonly FsAccess[] | undefined {
    const found = classifyCommand(input.command);
    if (!found.concurrencySafe) return undefined;
    return pathAccess(
      this.workspace,
      found.reads.map((path) => ({ path, mode: 'read' })),
    );
  }

  async execute(input: RunCommandInput, context: ToolContext): Promise<ToolOutput> {
    const readOnly = this.#reads(input) !== undefined;
    try {
      return await runShell({
        command: input.command,
        cwd: this.workspace.root,
        env: runCommandEnvironment(this.workspace.root),
        timeoutMs: input.timeoutMs ?? RUN_COMMAND_DEFAULT_TIMEOUT_MS,
        signal: context.signal,
      });
    } finally {
      if (!readOnly) this.cache.clear();
    }
  }
}

/** Runs `/bin/sh -c command`, collecting its output up to the cap. */
function runShell(options: {
  readonly command: string;
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}): Promise<ToolOutput> {
  options.signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', options.command], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let dropped = 0;
    const collect = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      const room = RUN_COMMAND_MAX_OUTPUT_CHARS - output.length;
      output += text.slice(0, Math.max(0, room));
      dropped += Math.max(0, text.length - Math.max(0, room));
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let timedOut = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = () => killGroup();
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      resolve({ content: `run_command could not start /bin/sh: ${error.message}`, isError: true });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      if (options.signal.aborted) {
        reject(options.signal.reason);
        return;
      }
      const notes = [
        dropped > 0 ? `[output cut: ${dropped} more characters]` : undefined,
        timedOut
          ? `[timed out after ${options.timeoutMs} ms: stopped]`
          : signal !== null
            ? `[killed by ${signal}]`
            : `[exit code ${code}]`,
      ].filter((note) => note !== undefined);
      const content = [output.replace(/\n$/, ''), ...notes]
        .filter((part) => part !== '')
        .join('\n');
      resolve({ content, isError: timedOut || signal !== null || code !== 0 });
    });
  });
}
