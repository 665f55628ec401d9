import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dispatcher } from '@toolwaves/executor-rx';
import { runAgentLoop, type SessionRecord } from './agent-loop.js';
import type { PlannerName } from './cli-options.js';
import { demoRegistry } from './demo-registry.js';
import { plannerByName } from './planner-by-name.js';
import { SAMPLE_WORKSPACE } from './sample-workspace.js';
import { ScriptedModel } from './scripted-model.js';
import type { ScriptedTurn } from './scripted-session.js';

/** Options of {@link replaySession}. */
export interface ReplaySessionOptions {
  /** The session's turns, replayed as they were asked. */
  readonly turns: readonly ScriptedTurn[];
  /** Folder of the session inside the root ('.' for the root itself). */
  readonly dir: string;
  readonly planner: PlannerName;
  readonly maxConcurrency: number;
  readonly latency: number;
  /** How fast the model writes (`Infinity`: each turn at once). */
  readonly tokensPerSecond: number;
  /** Stream each turn into the dispatcher (eager) instead of running whole turns in waves. */
  readonly stream: boolean;
  /** Stops the replay: it rejects with the dispatcher's `cancelled` error. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Replays a session on a fresh copy of the sample workspace, in parallel mode with the given
 * planner, the same injected latencies and token rate each time, so replays run one after another
 * in one process are measured side by side. The copy is removed afterwards.
 */
export async function replaySession(options: ReplaySessionOptions): Promise<SessionRecord> {
  const root = await mkdtemp(join(tmpdir(), 'toolwaves-compare-'));
  try {
    await cp(SAMPLE_WORKSPACE, options.dir === '.' ? root : join(root, options.dir), {
      recursive: true,
    });
    const dispatcher = new Dispatcher({
      registry: demoRegistry({ root, latency: options.latency }),
      mode: 'parallel',
      maxConcurrency: options.maxConcurrency,
      planner: plannerByName(options.planner),
    });
    return await runAgentLoop({
      model: new ScriptedModel({
        turns: options.turns,
        tokensPerSecond: options.tokensPerSecond,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      }),
      dispatcher,
      stream: options.stream,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
