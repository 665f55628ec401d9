import type { Coordinator, Tool, ToolCall, ToolContext, ToolOutput } from '@toolwaves/core';
import { checkOptions } from '@toolwaves/core/internal';
import { acquireGrant, type GrantAnswer, type GrantedRun, runUnderGrant } from './fleet-grant.js';
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
   * The fleet coordinator (`@toolwaves/redis`): each run of the tool holds its grant, asked
   * inside the journaled step (see `runDurableTurn`).
   */
  readonly coordinator?: Coordinator | undefined;
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
 *
 * With a fleet `coordinator`, the grant is asked inside the first of those steps whose action
 * runs (`started` when there is one, so the grant is held before the step that says the tool may
 * have run), never between the scheduler's decision and the step: the journal's order of steps
 * does not depend on how long Redis took, and a replayed finished call asks for nothing.
 * @throws RestateTurnError `invalid_options` for bad options, naming the field and the value.
 */
export function durableExecute(options: DurableExecuteOptions): DurableExecute {
  const rules = RESTATE_OPTION_RULES;
  checkOptions({
    subject: 'durableExecute',
    options,
    rules: {
      driver: rules.driver,
      call: rules.call,
      tool: rules.tool,
      turnId: rules.turnId,
      coordinator: rules.coordinator,
      durations: rules.durations,
    },
    required: ['driver', 'call', 'turnId'],
    error: invalidOptions,
  });
  const { driver, call, tool, turnId, coordinator } = options;
  const names = { toolName: call.name, callId: call.id };
  return async (input, context) => {
    const step = `${call.id} attempt ${context.attempt}`;
    const ask = (): Promise<GrantAnswer | undefined> =>
      coordinator === undefined || tool === undefined
        ? Promise.resolve(undefined)
        : acquireGrant({ coordinator, call, tool, input, signal: context.signal });
    let mayRun = true;
    let granted: GrantAnswer | undefined;
    if (!mayRerun(tool, input)) {
      mayRun = false;
      // The step's action runs only when the step is not already journaled.
      await driver.step(`${step} started`, async () => {
        mayRun = true;
        granted = await ask();
        return true;
      });
    }
    const outcome = await driver.step<StepOutcome>(step, async () => {
      if (!mayRun) return { kind: 'unknown' };
      if (tool === undefined) return thrownOutcome(`no tool is registered as \`${call.name}\``);
      const answer = granted ?? (await ask());
      if (answer !== undefined && 'refused' in answer) return answer.refused;
      const idempotencyKey = `${turnId}/${call.id}/${context.attempt}`;
      const run = async (extra?: GrantedRun): Promise<StepOutcome> => {
        const started = performance.now();
        const ms = () => Math.round(performance.now() - started);
        // Built field by field: the Dispatcher's context keeps `signal` behind a getter.
        const toolContext: ToolContext = {
          toolCallId: context.toolCallId,
          attempt: context.attempt,
          signal: context.signal,
          idempotencyKey,
          ...extra,
        };
        try {
          return { ...outcomeOf(await tool.execute(input, toolContext)), ms: ms() };
        } catch (error) {
          return { ...thrownOutcome(error), ms: ms() };
        }
      };
      if (answer === undefined) return run();
      return runUnderGrant({ grant: answer.grant, signal: context.signal, run });
    });
    if (outcome.ms !== undefined && options.durations !== undefined) {
      options.durations.set(call.id, (options.durations.get(call.id) ?? 0) + outcome.ms);
    }
    return replayOutcome(outcome, names);
  };
}
