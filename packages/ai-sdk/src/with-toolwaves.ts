import { StepTurns, type TurnSource, takeWaitForPrevious } from '@toolwaves/core';
import { checkOption, checkOptions, optionRules } from '@toolwaves/core/internal';
import type { ToolExecutionOptions, ToolSet } from 'ai';
import { invalidOptions } from './step-options.js';
import { ToolLoopError } from './tool-loop-error.js';
import { withWaitForPreviousSchema } from './wait-for-previous-schema.js';

/** Options of {@link withToolwaves}. */
export interface WithToolwavesOptions {
  /**
   * The `Dispatcher` that decides when each call starts: its registry holds the tools'
   * declarations (`declareTool`, or the toolwaves tools themselves), by the tool set's keys.
   */
  readonly dispatcher: TurnSource;
  /**
   * Give the model the optional boolean `wait_for_previous` on every tool with `execute`: a
   * call that sets it `true` starts only after every call the step started before it has ended
   * (its tool never sees the field). Default: the dispatcher's own `modelOrdering`.
   */
  readonly modelOrdering?: boolean | undefined;
}

/**
 * AI SDK tools with their own `execute`, run when toolwaves lets them: the calls of one step
 * (`generateText`, `streamText`, `ToolLoopAgent`) go into one turn of the dispatcher, in the
 * order the AI SDK starts them, and each starts as soon as the earlier calls it conflicts with
 * have ended (two edits of one file never overlap; a read of another file runs beside them).
 * The AI SDK still runs every tool and gets each output as the tool made it; a tool's error
 * reaches it unchanged (a `tool-error` the model reads); the call's abort signal answers the
 * calls still waiting without running them, and the toolwaves per-call signal (timeout,
 * cancellation) reaches the tool through `abortSignal`. Tools without `execute` are left as they
 * are. A tool whose `execute` streams preliminary results gives only its last one.
 *
 * @example
 * ```ts
 * import { generateText, isStepCount } from 'ai';
 * import { withToolwaves } from '@toolwaves/ai-sdk';
 *
 * const { text } = await generateText({
 *   model,
 *   tools: withToolwaves({ readFile, editFile, search }, { dispatcher }),
 *   stopWhen: isStepCount(10),
 *   prompt: 'Rename the `user` field to `account` everywhere under src/',
 * });
 * ```
 * @throws ToolLoopError `invalid_options` when `dispatcher` cannot open turns, `tools` is not an
 *   object, or for an unknown option (with a "did you mean" for a near miss).
 * @see runToolLoop for tools without `execute`, whose calls start while the model writes.
 */
export function withToolwaves<TOOLS extends ToolSet>(
  tools: TOOLS,
  options: WithToolwavesOptions,
): TOOLS {
  checkOption({
    name: 'tools',
    subject: 'the tools of withToolwaves',
    value: tools,
    rule: { ...optionRules.object, expected: 'a ToolSet (an object of AI SDK tools)' },
    error: invalidOptions,
  });
  checkOptions({
    subject: 'withToolwaves',
    options,
    rules: { dispatcher: optionRules.dispatcher, modelOrdering: optionRules.boolean },
    required: ['dispatcher'],
    error: invalidOptions,
  });
  const modelOrdering = options.modelOrdering ?? options.dispatcher.modelOrdering === true;
  const turns = new StepTurns({
    dispatcher: options.dispatcher,
    error: invalidOptions,
    modelOrdering,
  });
  const scheduled: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute;
    if (execute === undefined) {
      scheduled[name] = tool;
      continue;
    }
    scheduled[name] = {
      ...tool,
      ...(modelOrdering ? { inputSchema: withWaitForPreviousSchema(tool.inputSchema, name) } : {}),
      execute: async (input: unknown, callOptions: ToolExecutionOptions) => {
        // The tool's own input: `wait_for_previous` is the dispatcher's (it makes the edge).
        const own = modelOrdering ? takeWaitForPrevious(input).input : input;
        const { abortSignal } = callOptions;
        const outcome = await turns.run({
          // one array for all the calls of a step, made afresh for each step of each call:
          // calls of two runs never share it, even with equal ids
          step: callOptions.messages,
          call: { id: callOptions.toolCallId, name, input },
          signal: abortSignal,
          execute: async (context) =>
            lastValue(
              await execute(own as never, {
                ...callOptions,
                abortSignal:
                  abortSignal === undefined
                    ? context.signal
                    : AbortSignal.any([abortSignal, context.signal]),
              }),
            ),
          output: (value) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')),
        });
        if (outcome.kind === 'ran') return outcome.value;
        if (outcome.kind === 'threw') throw outcome.error;
        // as a tool that its abort signal stopped (`abortSignal.throwIfAborted()`)
        if (outcome.kind === 'aborted') throw outcome.reason;
        throw new ToolLoopError({ code: 'not_run', message: outcome.result.content });
      },
    } as ToolSet[string];
  }
  return scheduled as TOOLS;
}

/** The value, or the last value of an `execute` that streams preliminary results. */
async function lastValue(value: unknown): Promise<unknown> {
  if (typeof (value as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] !== 'function') {
    return value;
  }
  let last: unknown;
  for await (const part of value as AsyncIterable<unknown>) last = part;
  return last;
}
