import type { Agent, FunctionTool, RunContext, Tool } from '@openai/agents-core';
import { StepTurns, type TurnSource } from '@toolwaves/core';
import { checkOptions, optionMessage, optionRules } from '@toolwaves/core/internal';
import { invalidOptions } from './agents-adapter-error.js';
import {
  argumentsWithoutWaitForPrevious,
  parametersWithWaitForPrevious,
} from './wait-for-previous-tool.js';

/** Options of {@link withToolwaves}. */
export interface WithToolwavesOptions {
  /**
   * The `Dispatcher` that decides when each call starts: its registry holds the tools'
   * declarations (`declareTool`, or the toolwaves tools themselves), by the function tools' names.
   */
  readonly dispatcher: TurnSource;
  /**
   * Give the model the argument `wait_for_previous` on every function tool: a call that sets it
   * `true` starts only after every call of the same response the runner started before it has
   * ended; the tool never sees the field. Default: the dispatcher's own `modelOrdering`.
   */
  readonly modelOrdering?: boolean | undefined;
}

const invalid = invalidOptions;

/**
 * An agent (or a list of tools) whose function tools run when toolwaves lets them: the function
 * calls of one model response go into one turn of the dispatcher, in the order the runner starts
 * them, and each starts as soon as the earlier calls it conflicts with have ended (two edits of
 * one file never overlap; a read of another file runs beside them). The Agents SDK still runs
 * every tool (its input parsing, guardrails, error function, tracing) and gets each output as
 * the tool made it; a tool's error reaches it unchanged; the run's abort signal answers the
 * calls still waiting as cancelled, without running them. Turns belong to one run: two runs
 * whose calls carry equal ids never share one. Other tools (hosted, computer, shell) are left as
 * they are. Returns a clone: the agent given is not changed.
 *
 * @example
 * ```ts
 * import { Agent, run } from '@openai/agents';
 * import { Dispatcher } from '@toolwaves/executor-rx';
 * import { withToolwaves } from '@toolwaves/openai-agents';
 *
 * const agent = withToolwaves(
 *   new Agent({ name: 'Editor', instructions: 'Fix the TODOs.', tools: [readFile, editFile] }),
 *   { dispatcher: new Dispatcher({ registry, mode: 'eager' }) },
 * );
 * const result = await run(agent, 'Fix the rounding TODO in src/price.ts');
 * ```
 * @throws AgentsAdapterError `invalid_options` for a missing dispatcher, an unknown option (with
 *   a "did you mean" for a near miss) or a target that is neither an agent nor a list of tools.
 * @see toAgentsTools for toolwaves tools as function tools.
 */
export function withToolwaves<
  // biome-ignore lint/suspicious/noExplicitAny: any agent, whatever its context and output types
  T extends Agent<any, any> | readonly Tool<never>[],
>(target: T, options: WithToolwavesOptions): T extends readonly (infer U)[] ? U[] : T {
  type Result = T extends readonly (infer U)[] ? U[] : T;
  checkOptions({
    subject: 'withToolwaves',
    options,
    rules: { dispatcher: optionRules.dispatcher, modelOrdering: optionRules.boolean },
    required: ['dispatcher'],
    error: invalid,
  });
  const modelOrdering = options.modelOrdering ?? options.dispatcher.modelOrdering === true;
  const turns = new StepTurns({ dispatcher: options.dispatcher, error: invalid, modelOrdering });
  const schedule = <TTool extends Tool<never>>(tool: TTool): TTool =>
    scheduled(tool, turns, modelOrdering);
  if (Array.isArray(target)) {
    return (target as readonly Tool<never>[]).map(schedule) as Result;
  }
  const agent = target as unknown as Agent<unknown, never>;
  if (typeof agent?.clone !== 'function' || !Array.isArray(agent.tools)) {
    throw invalid(
      optionMessage({
        name: 'agent',
        expected: 'an Agent or a list of tools',
        value: target,
        subject: 'the first argument of withToolwaves',
      }),
    );
  }
  return agent.clone({
    tools: agent.tools.map((tool) => schedule(tool)),
  }) as unknown as Result;
}

/** A function tool whose `invoke` goes through the turn of its step; any other tool as it is. */
function scheduled<TTool extends Tool<never>>(
  tool: TTool,
  turns: StepTurns,
  modelOrdering: boolean,
): TTool {
  if (tool.type !== 'function') return tool;
  const inner = tool as unknown as FunctionTool<unknown, never, unknown>;
  const invoke: FunctionTool<unknown, never, unknown>['invoke'] = async (
    runContext: RunContext<unknown>,
    input: string,
    details,
  ) => {
    const outcome = await turns.run({
      // one run context per run; within it, a response's calls share the runner's per-batch
      // signal (one call alone gets the run's signal, or none)
      run: runContext,
      step: details?.signal,
      call: { id: details?.toolCall?.callId ?? '', name: inner.name, input: parsed(input) },
      signal: details?.signal,
      // The tool gets its own arguments: `wait_for_previous` is the dispatcher's (an edge).
      execute: () =>
        inner.invoke(
          runContext,
          modelOrdering ? argumentsWithoutWaitForPrevious(input) : input,
          details,
        ),
      output: (value) => (typeof value === 'string' ? value : JSON.stringify(value)),
    });
    if (outcome.kind === 'ran') return outcome.value;
    if (outcome.kind === 'threw') throw outcome.error;
    // as a tool that its signal stopped: the runner answers the call as cancelled
    if (outcome.kind === 'aborted') throw outcome.reason;
    return outcome.result.content; // what the model reads, as from the tool's error function
  };
  // the same tool (its descriptors, its prototype), with `invoke` going through the turn
  const descriptors: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(tool);
  descriptors.invoke = { value: invoke, enumerable: true, writable: true, configurable: true };
  if (modelOrdering) {
    const parameters = parametersWithWaitForPrevious(inner);
    descriptors.parameters = {
      value: parameters,
      enumerable: true,
      writable: true,
      configurable: true,
    };
  }
  return Object.create(Object.getPrototypeOf(tool), descriptors) as TTool;
}

/** The arguments as the dispatcher validates them: parsed JSON, or the text when it is not. */
function parsed(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}
