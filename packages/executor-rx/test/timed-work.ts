import { abortableDelay, fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { Observable } from 'rxjs';
import { fakeNow } from './fake-clock.js';

/** What a `work` call declares and how long it takes. */
export interface Work {
  readonly ms: number;
  readonly write?: string;
  readonly read?: string;
  readonly key?: string;
  readonly unsafe?: boolean;
}

/** One run of a `work` tool on the fake clock. */
export interface WorkRun {
  readonly start: number;
  end?: number;
  aborted?: boolean;
}

/**
 * A registry with one tool, `work`, that waits `ms` on the fake clock and records its run in
 * `runs` by call id: safe unless `unsafe`, a `resourceKey` when `key` is given (a write), and
 * the `read` / `write` accesses given.
 */
export function workRegistry(runs: Map<string, WorkRun>): ToolRegistry {
  return new ToolRegistry().add(
    fnTool<Work>({
      name: 'work',
      description: 'waits its time on the clock',
      concurrencySafe: (input) => input.unsafe !== true,
      resourceKey: (input) => input.key,
      access: (input) => [
        ...(input.write === undefined ? [] : [{ key: input.write, mode: 'write' as const }]),
        ...(input.read === undefined ? [] : [{ key: input.read, mode: 'read' as const }]),
      ],
      execute: async (input, context) => {
        const run: WorkRun = { start: fakeNow() };
        runs.set(context.toolCallId, run);
        try {
          await abortableDelay(input.ms, context.signal);
        } catch (error) {
          run.aborted = true;
          throw error;
        } finally {
          run.end = fakeNow();
        }
        return `done ${context.toolCallId}`;
      },
    }),
  );
}

export const work = (id: string, input: Work): ToolCall => ({ id, name: 'work', input });

/**
 * A model writing its message on the fake clock: call k arrives at `arrivalMs[k]`, and at
 * `endMs` the message ends (`'complete'`) or the stream fails with `error`.
 */
export function message(options: {
  readonly calls: readonly ToolCall[];
  readonly arrivalMs: readonly number[];
  readonly endMs: number;
  readonly end: 'complete' | 'error';
}): Observable<ToolCall> {
  const { calls, arrivalMs, endMs, end } = options;
  return new Observable<ToolCall>((subscriber) => {
    const timers = calls.map((call, k) => setTimeout(() => subscriber.next(call), arrivalMs[k]));
    timers.push(
      setTimeout(() => {
        if (end === 'complete') subscriber.complete();
        else subscriber.error(new Error('overloaded_error: the model stream broke off'));
      }, endMs),
    );
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  });
}
