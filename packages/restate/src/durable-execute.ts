import type { Tool, ToolCall, ToolContext, ToolOutput } from '@toolwaves/core';
import { checkOptions } from '@toolwaves/core/internal';
import type { JournalDriver } from './journal-driver.js';
import { mayRerun } from './may-rerun.js';
import { invalidOptions, RESTATE_OPTION_RULES } from './restate-option-rules.js';
import { outcomeOf, replayOutcome, type StepOutcome, thrownOutcome } from './step-outcome.js';

/** What a turn's `run(call, execute)` takes: runs one attempt of the call. */
export type DurableExecute = (input: unknown, context: ToolContext) => Promise<string | ToolOutput>;

/** Options of {@link durableExecute}. */
export interface DurableExecuteOptions {
  readonly driver: JournalDriver;
  readonly call: ToolCall;
  readonly tool: Tool | undefined;
  readonly turnId: string;
  /**
   * Where the journaled running time of each call's tool is added up (ms, by call id): a
   * replay reports the same durations, so a handler's output does not change on a replay.
   */
  readonly durations?: Map<string, number>;
}

/**
 * The execute of one call of a durable turn: each attempt runs the tool inside the journaled step
 * `<call id> attempt <n>`, with `ToolContext.idempotencyKey` = `<turn id>/<call id>/<attempt>`.
 * A finished step answers from the journal without running. An unfinished one runs again when
 * the call may be re-run (`mayRerun`); otherwise the step `<call id> attempt <n> started` was
 * journaled before the tool ran, and finding it journaled by an earlier run of the handler means
 * the tool may have run: the attempt answers "outcome unknown" instead of running it twice.
 * @throws RestateTurnError `invalid_options` for bad options, naming the field and the value.
 */
export function durableExecute(options: DurableExecuteOptions): DurableExecute {
  const {
    driver: driverRule,
    call: callRule,
    tool: toolRule,
    turnId: turnIdRule,
    durations,
  } = RESTATE_OPTION_RULES;
  checkOptions({
    subject: 'durableExecute',
    options,
    rules: {
      driver: driverRule,
      call: callRule,
      tool: toolRule,
      turnId: turnIdRule,
      durations,
    },
    required: ['driver', 'call', 'turnId'],
    error: invalidOptions,
  });
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
      const started = performance.now();
      const ms = () => Math.round(performance.now() - started);
      try {
        const idempotencyKey = `${turnId}/${call.id}/${context.attempt}`;
        const output = await tool.execute(input, { ...context, idempotencyKey });
        return { ...outcomeOf(output), ms: ms() };
      } catch (error) {
        return { ...thrownOutcome(error), ms: ms() };
      }
    });
    if (outcome.ms !== undefined && options.durations !== undefined) {
      options.durations.set(call.id, (options.durations.get(call.id) ?? 0) + outcome.ms);
    }
    return replayOutcome(outcome, names);
  };
}
