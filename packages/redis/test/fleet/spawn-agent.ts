import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ToolResult } from '@toolwaves/core';
import {
  type AgentConfig,
  PAUSED_LINE,
  READY_LINE,
  RESULTS_PREFIX,
  STARTED_PREFIX,
} from './agent-config.js';
import { codeCachedCommand } from './bundle-script.js';

const SCRIPT = fileURLToPath(new URL('./agent-process.ts', import.meta.url));

/** A running agent process. */
export interface SpawnedAgent {
  readonly child: ChildProcess;
  /** Resolves when the agent is ready to dispatch. */
  readonly ready: Promise<void>;
  /** Resolves when the agent has stopped itself (`pauseBeforeWriting`). */
  readonly paused: Promise<void>;
  /** Lets it start its batches. */
  go(): void;
  /** Resolves when the agent's tool for call `id` has started (its `start` marker is written). */
  started(id: string): Promise<void>;
  /** The results of every batch, when the process exits normally. */
  readonly results: Promise<ToolResult[][]>;
  /** Resolves when the process has exited, however. */
  readonly exited: Promise<void>;
}

/**
 * Starts `agent-process.ts` (bundled) with `config` (written next to the marker log); it
 * dispatches once `go()` is called.
 */
export function spawnAgent(config: AgentConfig): SpawnedAgent {
  const configFile = `${config.log}.${config.agent}.json`;
  writeFileSync(configFile, JSON.stringify(config));
  const [command = '', ...args] = codeCachedCommand({ path: SCRIPT, args: [configFile] });
  const child = spawn(command, args, {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const startedCalls = new Set<string>();
  const waiting = new Map<string, () => void>();
  let stdout = '';
  let stderr = '';
  let buffered = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  let markPaused: () => void = () => undefined;
  const paused = new Promise<void>((resolve) => {
    markPaused = resolve;
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    buffered += chunk.toString();
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line === READY_LINE) markReady();
      if (line === PAUSED_LINE) markPaused();
      if (line.startsWith(STARTED_PREFIX)) {
        const id = line.slice(STARTED_PREFIX.length);
        startedCalls.add(id);
        waiting.get(id)?.();
      }
      newline = buffered.indexOf('\n');
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // 'close', not 'exit': a process may exit before the parent has read all it printed (its
  // last lines, the results among them, still in the pipe), and 'close' comes once the pipes
  // are drained. Read at 'exit', a loaded run found only "ready" of an agent that had finished.
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => resolve(code)),
  );
  const results = exited.then((code) => {
    const line = stdout.split('\n').find((l) => l.startsWith(RESULTS_PREFIX));
    if (code !== 0 || line === undefined) {
      throw new Error(`agent ${config.agent} exited with ${code}: ${stderr || stdout}`);
    }
    return JSON.parse(line.slice(RESULTS_PREFIX.length)) as ToolResult[][];
  });
  results.catch(() => undefined);
  return {
    child,
    ready,
    paused,
    go: () => child.stdin?.end('go\n'),
    results,
    exited: exited.then(() => undefined),
    started: (id) =>
      startedCalls.has(id)
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            waiting.set(id, resolve);
            exited.then(() =>
              reject(new Error(`agent ${config.agent} exited before ${id} started: ${stderr}`)),
            );
          }),
  };
}
