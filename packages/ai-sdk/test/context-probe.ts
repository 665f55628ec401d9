import { AsyncLocalStorage } from 'node:async_hooks';
import { type ToolExecutionOptions, type ToolSet, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { callsStep, type ScriptedCall, textStep } from './fixtures.js';

/** A request-scoped value: the run that asked (set around `generateText` by the test). */
export const requestScope = new AsyncLocalStorage<string>();
/** A per-call value, as a platform's wrapper around each tool's `execute` sets it. */
export const callScope = new AsyncLocalStorage<string>();

/** What a probe read of its async context when it started. */
export interface ContextReading {
  /** The call's own id (given explicitly by the AI SDK, not read from the context). */
  readonly toolCallId: string;
  readonly request: string | undefined;
  readonly call: string | undefined;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A tool that reads its async context when it starts, then answers `request:path` after a few
 * turns of the event loop, so that calls beyond the cap start when another call ends, in that
 * call's completion.
 */
export function probeTool(readings: ContextReading[]) {
  return tool({
    description: 'Reads its async context',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }, options) => {
      readings.push({
        toolCallId: options.toolCallId,
        request: requestScope.getStore(),
        call: callScope.getStore(),
      });
      for (let i = 0; i < 3; i += 1) await tick();
      return `${requestScope.getStore()}:${path}`;
    },
  });
}

/** Tools whose `execute` runs inside `callScope` set to the call's id (a platform's wrapper). */
export function withCallScope<TOOLS extends ToolSet>(tools: TOOLS): TOOLS {
  const wrapped: ToolSet = {};
  for (const [name, each] of Object.entries(tools)) {
    const execute = each.execute;
    wrapped[name] =
      execute === undefined
        ? each
        : ({
            ...each,
            execute: (input: unknown, options: ToolExecutionOptions) =>
              callScope.run(options.toolCallId, () => execute(input as never, options)),
          } as ToolSet[string]);
  }
  return wrapped as TOOLS;
}

/**
 * A mock model for any number of runs at once: asked with no tool results in its prompt, it asks
 * for `calls`; asked with tool results, it says "Done.".
 */
export function callingModel(calls: readonly ScriptedCall[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) =>
      prompt.some((message) => message.role === 'tool') ? textStep('Done.') : callsStep(calls),
  });
}

/** Turns the event loop until `condition()` holds (at most `turns` times): no wall-clock wait. */
export async function until(condition: () => boolean, turns = 100_000): Promise<void> {
  for (let i = 0; i < turns; i += 1) {
    if (condition()) return;
    await tick();
  }
  throw new Error(`the condition did not hold after ${turns} turns of the event loop`);
}
