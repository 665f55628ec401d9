import type { Tool, ToolCall, ToolContext, ToolOutput } from '@toolwaves/core';
import type { JournalDriver } from './journal-driver.js';
import { mayRerun } from './may-rerun.js';
import { outcomeOf, replayOutcome, type StepOutcome, thrownOutcome } from './step-outcome.js';

/** What a turn's `run(call, execute)` takes: runs one attempt of the call. */
export type DurableExecute = (input: unknown, context: ToolContext) => Promise<string | ToolOutput>;

/** Options of {@link durableExecute}. */
export interface DurableExecuteOptions {
  readonly driver: JournalDriver;
  readonly call: ToolCall;
  readonly tool: Tool | undefined;
  readonly turnId: string;
}

/**
 * The execute of one call of a durable turn: each attempt runs the tool inside the journaled step
 * `<call id> attempt <n>`, with `ToolContext.idempotencyKey` = `<turn id>/<call id>/<attempt>`.
 * A finished step answers from the journal without running. An unfinished one runs again when
 * the call may be re-run (`mayRerun`); otherwise the step `<call id> attempt <n> started` was
 * journaled before the tool ran, and finding it journaled by an earlier run of the handler means
 * the tool may have run: the attempt answers "outcome unknown" instead of running it twice.
 */
export function durableExecute(options: DurableExecuteOptions): DurableExecute {
  const { driver, call, tool, turnId } = options;
  const names = { toolName: call.name, callId: call.id };
  return async (input, context) => {
    const step = `${call.id} attempt ${context.attempt}`;
    let mayRun = true;
    if (!mayRerun(tool, input)) {
      mayRun = false;
      // The step's action runs only when the step is not already journaled.
      await driver.step(`${step} started`, async () => {
        mayRun = true;
        return true;
      });
    }
    const outcome = await driver.step<StepOutcome>(step, async () => {
      if (!mayRun) return { kind: 'unknown' };
      if (tool === undefined) return thrownOutcome(`no tool is registered as \`${call.name}\``);
      try {
        const idempotencyKey = `${turnId}/${call.id}/${context.attempt}`;
        return outcomeOf(await tool.execute(input, { ...context, idempotencyKey }));
      } catch (error) {
        return thrownOutcome(error);
      }
    });
    return replayOutcome(outcome, names);
  };
}
