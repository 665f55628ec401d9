import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { ToolClass, type ToolContext, type ToolOutput, tool } from '@toolwaves/core';
import { inject } from 'inversify';
import { z } from 'zod';
import { type CommandClassification, classifyCommand } from './classify-command.js';
import { runCommandEnvironment } from './command-environment.js';
import {
  probeSandbox,
  SANDBOX_HOME,
  type SandboxProbe,
  sandboxArguments,
} from './command-sandbox.js';
import { fsKey } from './fs-key.js';
import { FS_READ_CACHE } from './fs-read-cache-token.js';
import { FS_WORKSPACE } from './fs-workspace-token.js';
import type { FsAccess } from './path-access.js';
import type { ReadCache } from './read-cache.js';
import { FS_RUN_COMMAND, type RunCommandSettings } from './run-command-options.js';
import { runShell } from './run-shell.js';
import type { Workspace } from './workspace.js';

/** `run_command`'s timeout when the call gives none, ms. */
export const RUN_COMMAND_DEFAULT_TIMEOUT_MS = 120_000;
/** The longest timeout a call may ask for, ms. */
export const RUN_COMMAND_MAX_TIMEOUT_MS = 600_000;

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

/** How many commands planned as read-only are remembered, so they surely run sandboxed. */
const REMEMBERED = 256;
let noticeGiven = false;

/**
 * `run_command` (opt-in: `fsToolsModule({ root, runCommand: true | { sandbox } })`): runs a
 * shell command with `/bin/sh -c` in the workspace root, with the environment of
 * {@link runCommandEnvironment}, no standard input, a timeout (`timeoutMs`, default 2 min, at
 * most 10; the whole process group is killed) and the output capped at 30 000 characters.
 * Answers the output and the exit code; a non-zero exit, a signal or the timeout is a soft error.
 *
 * A command {@link classifyCommand} finds read-only is concurrency-safe, reads the real paths
 * it names, and runs in a read-only bubblewrap sandbox (nothing writable, no network, nothing
 * of the host but the workspace and the system folders). Any other command is not
 * concurrency-safe, declares a write on the workspace root (so it waits for, and excludes, every
 * call on a file of the workspace, fleet-wide too), runs unconfined (or, with `sandbox:
 * 'workspace-write'`, in the sandbox with the root writable), and clears the read cache when it
 * ends. Where no sandbox can run ({@link RunCommandTool.sandbox}), no command is read-only.
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
    'Run a shell command in the workspace root (/bin/sh -c). Answers its output (stdout and stderr) and exit code. Read-only commands (ls, cat, grep, git status, …) run in a read-only sandbox alongside other reads; any other command runs alone.',
  input: runCommandInput,
})
export class RunCommandTool extends ToolClass {
  /** Whether a read-only sandbox can run here; when not, why (and no command is read-only). */
  readonly sandbox: SandboxProbe;
  readonly #readOnly = new Set<string>();

  constructor(
    @inject(FS_WORKSPACE) private readonly workspace: Workspace,
    @inject(FS_READ_CACHE) private readonly cache: ReadCache,
    @inject(FS_RUN_COMMAND) private readonly settings: RunCommandSettings,
  ) {
    super();
    this.sandbox = probeSandbox(settings.bwrap === undefined ? {} : { bwrap: settings.bwrap });
    if (!this.sandbox.available && !noticeGiven) {
      noticeGiven = true;
      process.emitWarning(
        `run_command: no sandbox (${this.sandbox.reason}); every command runs alone`,
        { code: 'TOOLWAVES_NO_SANDBOX' },
      );
    }
  }

  /** The classification this tool acts on: {@link classifyCommand}'s, or unsafe without a sandbox. */
  classify(input: RunCommandInput): CommandClassification {
    if (!this.sandbox.available) {
      return { concurrencySafe: false, reason: `no sandbox: ${this.sandbox.reason}` };
    }
    const found = classifyCommand(input.command, { root: this.workspace.root });
    if (found.concurrencySafe) this.#remember(input.command);
    return found;
  }

  isConcurrencySafe(input: RunCommandInput): boolean {
    return this.classify(input).concurrencySafe;
  }

  access(input: RunCommandInput): readonly FsAccess[] {
    const found = this.classify(input);
    if (!found.concurrencySafe) return [{ key: fsKey(this.workspace.root), mode: 'write' }];
    return found.reads.map((path) => ({ key: fsKey(path), mode: 'read' }));
  }

  async execute(input: RunCommandInput, context: ToolContext): Promise<ToolOutput> {
    // A command planned as read-only runs sandboxed read-only even if the files changed since.
    const readOnly = this.classify(input).concurrencySafe || this.#readOnly.has(input.command);
    const root = this.workspace.root;
    const timeoutMs = input.timeoutMs ?? RUN_COMMAND_DEFAULT_TIMEOUT_MS;
    const confined = readOnly || this.settings.sandbox === 'workspace-write';
    if (confined && !this.sandbox.available) {
      // Only reachable with `workspace-write` (without a sandbox nothing is read-only): the
      // confinement asked for cannot be given, so the command does not run at all.
      return {
        content: `run_command: the command was not run: sandbox 'workspace-write' was asked for, but no sandbox can run here (${this.sandbox.reason})`,
        isError: true,
      };
    }
    if (confined && this.sandbox.available) {
      return runShell({
        file: this.sandbox.bwrap,
        args: sandboxArguments({
          root,
          writable: !readOnly,
          command: input.command,
          readOnly: readOnly ? [] : hostPath(root),
        }),
        cwd: root,
        env: runCommandEnvironment({ root, home: SANDBOX_HOME, readOnly }),
        timeoutMs,
        signal: context.signal,
      }).finally(() => {
        if (!readOnly) this.cache.clear();
      });
    }
    const home = mkdtempSync(join(tmpdir(), 'toolwaves-home-'));
    try {
      return await runShell({
        file: '/bin/sh',
        args: ['-c', input.command],
        cwd: root,
        env: runCommandEnvironment({ root, home, readOnly: false }),
        timeoutMs,
        signal: context.signal,
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
      this.cache.clear();
    }
  }

  #remember(command: string): void {
    this.#readOnly.delete(command);
    this.#readOnly.add(command);
    if (this.#readOnly.size > REMEMBERED) {
      this.#readOnly.delete(this.#readOnly.values().next().value as string);
    }
  }
}

/** The host's `PATH` folders, to show read-only to commands that may run anything. */
function hostPath(root: string): string[] {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => isAbsolute(dir) && dir !== '/' && dir !== root && !dir.startsWith(`${root}/`));
}
