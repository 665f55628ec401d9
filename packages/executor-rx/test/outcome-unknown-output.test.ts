import {
  fnTool,
  type Instrumentation,
  outcomeUnknownText,
  type Tool,
  type ToolOutput,
  ToolRegistry,
} from '@toolwaves/core';
import { describe, expect, it } from 'vitest';
import { Dispatcher, type RecoveryStrategy } from '../src/index.js';

/** A strategy that retries every soft error it is handed, up to the third attempt. */
const retryEverything: RecoveryStrategy = {
  name: 'retry-everything',
  decide: ({ failure }) =>
    failure.attempt < 3 ? { action: 'retry', delayMs: 0 } : { action: 'skip' },
};

/** The error kind of each attempt's end, as the instrumentation is told. */
function endKinds(): { instrumentation: Instrumentation; kinds: (string | undefined)[] } {
  const kinds: (string | undefined)[] = [];
  const instrumentation: Instrumentation = {
    startBatch: () => ({
      startAttempt: () => ({
        granted: () => undefined,
        run: (fn) => fn(),
        end: (info) => {
          kinds.push(info.errorKind);
        },
      }),
      end: () => undefined,
    }),
  };
  return { instrumentation, kinds };
}

function answering(output: ToolOutput): { tool: Tool; runs: () => number } {
  let runs = 0;
  const tool = fnTool({
    name: 'charge',
    description: 'Charges a card',
    execute: () => {
      runs++;
      return output;
    },
  }) as Tool;
  return { tool, runs: () => runs };
}

describe('a tool (or its wrapper) answering `{ content, outcomeUnknown: true }`', () => {
  const unknown = outcomeUnknownText({
    toolName: 'charge',
    cause: 'was cut off by a crash while it ran (call `c1`)',
  });

  it('is the soft error `outcome_unknown` with its content, an error even without `isError`, never retried', async () => {
    const { tool, runs } = answering({ content: unknown, outcomeUnknown: true });
    const { instrumentation, kinds } = endKinds();
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(tool),
      recovery: { strategy: retryEverything },
      instrumentation,
    });
    const [result] = await dispatcher.dispatch([{ id: 'c1', name: 'charge', input: {} }]);
    expect(result).toMatchObject({ toolCallId: 'c1', content: unknown, isError: true });
    expect(runs()).toBe(1);
    expect(kinds).toEqual(['outcome_unknown']);
  });

  it('reads like a lost fleet lease: one sentence, only the cause differs', () => {
    expect(unknown).toBe(
      'Tool `charge` was cut off by a crash while it ran (call `c1`): its effect is unknown (it may or may not have taken place); it was not retried',
    );
  });

  it('is an ordinary tool answer without the flag: recovery sees `tool_reported` and retries it', async () => {
    const { tool, runs } = answering({ content: 'declined', isError: true });
    const { instrumentation, kinds } = endKinds();
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(tool),
      recovery: { strategy: retryEverything },
      instrumentation,
    });
    const [result] = await dispatcher.dispatch([{ id: 'c1', name: 'charge', input: {} }]);
    expect(result).toMatchObject({ content: expect.stringContaining('declined'), isError: true });
    expect(runs()).toBe(3);
    expect(kinds).toEqual(['tool_reported', 'tool_reported', 'tool_reported']);
  });
});
