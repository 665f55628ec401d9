import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { type Tool, type ToolContext, ToolRegistry } from '@toolwaves/core';

/** One line of the durable demo's log: a tool run starting or ending, in which process. */
export interface ToolRunLine {
  readonly e: 'start' | 'end';
  readonly call: string;
  readonly pid: number;
}

/**
 * The same tools, each run logged to `log` (a JSON line when the tool starts and when it ends,
 * with the process id): the log outlives the service process the demo kills, so it tells which
 * calls really ran in which process. Declarations are the tools' own (the wrapper inherits them).
 */
export function loggedRegistry(options: { registry: ToolRegistry; log: string }): ToolRegistry {
  const logged = new ToolRegistry();
  const write = (line: ToolRunLine) => appendFileSync(options.log, `${JSON.stringify(line)}\n`);
  for (const name of options.registry.names()) {
    const inner = options.registry.get(name);
    if (inner === undefined) continue;
    const tool: Tool = Object.create(inner, {
      execute: {
        value: async (input: unknown, context: ToolContext) => {
          write({ e: 'start', call: context.toolCallId, pid: process.pid });
          const output = await inner.execute.call(inner, input, context);
          write({ e: 'end', call: context.toolCallId, pid: process.pid });
          return output;
        },
      },
    });
    logged.add(tool);
  }
  return logged;
}

/** Every complete line of the log (a line still being written is left for a later read). */
export function readToolRuns(log: string): ToolRunLine[] {
  if (!existsSync(log)) return [];
  const lines = readFileSync(log, 'utf8').split('\n');
  lines.pop();
  return lines.filter((line) => line !== '').map((line) => JSON.parse(line) as ToolRunLine);
}

/** What became of one call of the durable turn, across the crashes. */
export type CallFate =
  | 'journal' // ran and finished before a crash: answered from the journal, not run again
  | 'rerun' // cut off (or not yet journaled) by a crash, then ran again
  | 'unknown' // cut off by a crash, may not run twice: answered "outcome unknown"
  | 'after' // first ran after the last restart
  | 'once'; // ran once, no crash touched it

/** Options of {@link callFate}. */
export interface CallFateOptions {
  readonly callId: string;
  /** The call's answer: `isError` and its text. */
  readonly result: { readonly isError: boolean; readonly content: string };
  readonly runs: readonly ToolRunLine[];
  /** The service processes killed, in order. */
  readonly killed: readonly number[];
}

/** How the call went, from the runs logged and its answer. */
export function callFate(options: CallFateOptions): CallFate {
  const starts = options.runs.filter((run) => run.e === 'start' && run.call === options.callId);
  if (options.result.isError && /its effect is unknown/.test(options.result.content)) {
    return 'unknown';
  }
  const inKilled = starts.filter((run) => options.killed.includes(run.pid)).length;
  if (starts.length > 1) return 'rerun';
  if (starts.length === 1 && inKilled === 1) return 'journal';
  if (starts.length === 1 && options.killed.length > 0) return 'after';
  return 'once';
}
