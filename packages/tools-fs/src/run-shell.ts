import { spawn } from 'node:child_process';
import type { ToolOutput } from '@toolwaves/core';

/** Most characters of output (stdout and stderr, interleaved) `run_command` answers with. */
export const RUN_COMMAND_MAX_OUTPUT_CHARS = 30_000;

/**
 * Runs a program (`/bin/sh`, or `bwrap` around it) in its own process group with no standard
 * input, collecting stdout and stderr up to {@link RUN_COMMAND_MAX_OUTPUT_CHARS}. The timeout
 * and the signal kill the whole group. Answers the output and the exit code; a non-zero exit,
 * a signal or the timeout is a soft error; a cancellation rejects with the signal's reason.
 */
export function runShell(options: {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}): Promise<ToolOutput> {
  options.signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const child = spawn(options.file, options.args, {
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
      resolve({
        content: `run_command could not start ${options.file}: ${error.message}`,
        isError: true,
      });
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
