import type { ToolCall } from '@toolwaves/core';

/** What one agent process does (a JSON file, its first argument). */
export interface AgentConfig {
  readonly agent: string;
  /** Empty: run without a coordinator (each process on its own). */
  readonly redisUrl: string;
  readonly namespace: string;
  readonly leaseMs: number;
  /** The shared workspace. */
  readonly root: string;
  /** The marker log every agent appends to (one JSON line per tool start and end). */
  readonly log: string;
  /** Batches dispatched one after another, in parallel mode. */
  readonly batches: readonly (readonly ToolCall[])[];
  /** How long each tool waits after its start marker before doing its work (widens windows). */
  readonly holdMs: number;
  /** How long each tool waits after its work, before its end marker (still holding its locks). */
  readonly holdAfterMs?: number;
  /**
   * Stop this process (`SIGSTOP` to itself, after printing {@link PAUSED_LINE}) the first time a
   * tool is about to write the named thing: the draft of the file of that name (the fs tools),
   * or the counter of that name (`increment_counter`). The test sends `SIGCONT`.
   */
  readonly pauseBeforeWriting?: string;
  /**
   * Where an fs tool stops for {@link AgentConfig.pauseBeforeWriting}: `draft` (default: before
   * the new content is written, so before its commit) or `commit` (inside the host commit step,
   * the fence passed, right before the draft is renamed over the file).
   */
  readonly pauseAt?: 'draft' | 'commit';
  /** Where `increment_counter` keeps its counters (a Redis of its own); unset: no such tool. */
  readonly counterUrl?: string;
}

/** One line of the marker log. */
export interface Marker {
  readonly agent: string;
  readonly call: string;
  readonly tool: string;
  readonly phase: 'start' | 'end';
  readonly access: readonly { readonly key: string; readonly mode: 'read' | 'write' }[];
  readonly token: number | null;
}

/**
 * What the agent prints on stdout: `ready` once it can dispatch (it then waits for a line on
 * stdin), `started <callId>` when a tool starts, then its results.
 */
export const READY_LINE = 'ready';
export const RESULTS_PREFIX = 'results ';
export const STARTED_PREFIX = 'started ';
export const PAUSED_LINE = 'paused';
