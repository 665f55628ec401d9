import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Tool, type ToolContext, ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { demoRegistry } from './demo-registry.js';
import { type FrameworkName, runFrameworkSession } from './framework-session.js';
import { prepareWorkspace } from './sample-workspace.js';
import { scriptedSession } from './scripted-session.js';

/** One way of scheduling a framework's calls, measured on the whole scripted session. */
export interface FrameworkComparisonRow {
  readonly strategy: string;
  readonly maxConcurrency: number;
  readonly wallMs: number;
  /** Calls whose tool answered with an error or threw (0 when every conflict was kept apart). */
  readonly errors: number;
  /** Whether both edits of `src/price.ts` (one turn) are in the file at the end. */
  readonly editsLanded: boolean;
}

/**
 * The scripted session in one framework's loop, once per schedule, each in a fresh copy of the
 * sample workspace, one after the other in this process: the framework alone (every call of a
 * turn at once), one call at a time (what a framework without conflict control must fall back to
 * for safety), and toolwaves under `maxConcurrency`.
 */
export async function compareFrameworkSchedules(options: {
  readonly framework: FrameworkName;
  readonly maxConcurrency: number;
  readonly latency: number;
  readonly signal: AbortSignal;
}): Promise<FrameworkComparisonRow[]> {
  const schedules = [
    { strategy: 'the framework alone', maxConcurrency: Number.POSITIVE_INFINITY },
    { strategy: 'one call at a time', maxConcurrency: 1 },
    { strategy: 'toolwaves (eager)', maxConcurrency: options.maxConcurrency },
  ];
  const rows: FrameworkComparisonRow[] = [];
  for (const schedule of schedules) {
    const workspace = await prepareWorkspace({});
    try {
      const counted = countingErrors(
        demoRegistry({ root: workspace.root, latency: options.latency }),
      );
      const registry = counted.registry;
      const dispatcher = Number.isFinite(schedule.maxConcurrency)
        ? new Dispatcher({ registry, mode: 'eager', maxConcurrency: schedule.maxConcurrency })
        : undefined;
      const started = performance.now();
      await runFrameworkSession(options.framework, {
        registry,
        dispatcher,
        turns: scriptedSession(workspace.dir),
        signal: options.signal,
        onTurn: () => undefined,
      });
      const wallMs = performance.now() - started;
      const price = await readFile(join(workspace.root, workspace.dir, 'src/price.ts'), 'utf8');
      rows.push({
        ...schedule,
        wallMs,
        errors: counted.errors(),
        editsLanded: price.includes('* 100) / 100;') && price.includes('rounded to cents'),
      });
    } finally {
      await rm(workspace.root, { recursive: true, force: true });
    }
  }
  return rows;
}

/** A copy of the registry whose tools count the calls they answer with an error (or throw). */
function countingErrors(registry: ToolRegistry): { registry: ToolRegistry; errors: () => number } {
  let errors = 0;
  const counted = new ToolRegistry();
  for (const name of registry.names()) {
    const tool = registry.get(name) as Tool;
    const execute = async (input: unknown, context: ToolContext) => {
      try {
        const output = await tool.execute(input, context);
        if (typeof output !== 'string' && output.isError === true) errors += 1;
        return output;
      } catch (error) {
        errors += 1;
        throw error;
      }
    };
    counted.add(Object.create(tool, { execute: { value: execute } }) as Tool);
  }
  return { registry: counted, errors: () => errors };
}
