import { outcomeUnknownText, type ToolOutput } from '@toolwaves/core';
import { checkOptions } from '@toolwaves/core/internal';
import { invalidOptions, RESTATE_OPTION_RULES } from './restate-option-rules.js';

/**
 * How one attempt's tool ended, as journaled: JSON only, and never a thrown error (a step that
 * throws is retried by Restate, which would run the tool again).
 */
export type StepOutcome = (
  | { readonly kind: 'text'; readonly content: string }
  | {
      readonly kind: 'output';
      readonly content: string;
      readonly isError: boolean;
      /** The tool itself answered that its outcome is unknown (`ToolOutput.outcomeUnknown`). */
      readonly unknown?: true;
    }
  | { readonly kind: 'threw'; readonly message: string }
  | { readonly kind: 'other'; readonly value?: unknown }
  | {
      readonly kind: 'unknown';
      /** What cut the tool off (default: a crash of the service while it ran). */
      readonly cause?: string;
    }
) & {
  /** How long the tool ran, in ms, when it ran (journaled: a replay reports the same). */
  readonly ms?: number;
};

/** The journaled form of what a tool returned. */
export function outcomeOf(output: unknown): StepOutcome {
  if (typeof output === 'string') return { kind: 'text', content: output };
  if (
    typeof output === 'object' &&
    output !== null &&
    typeof (output as ToolOutput).content === 'string'
  ) {
    const { content, isError, outcomeUnknown } = output as ToolOutput;
    return outcomeUnknown === true
      ? { kind: 'output', content, isError: true, unknown: true }
      : { kind: 'output', content, isError: isError === true };
  }
  // Anything else is the scheduler's to judge (it answers a soft error naming what came back).
  return output === undefined ? { kind: 'other' } : { kind: 'other', value: jsonSafe(output) };
}

/** The journaled form of what a tool threw. */
export function thrownOutcome(error: unknown): StepOutcome {
  return { kind: 'threw', message: error instanceof Error ? error.message : String(error) };
}

/**
 * The words of a call cut off by a crash that may not run twice: those of every `outcome_unknown`
 * (`outcomeUnknownText` of `@toolwaves/core`, as for a call whose fleet lease was lost while it
 * ran), with the crash as the cause.
 * @throws RestateTurnError `invalid_options` for bad options, naming the field and the value.
 */
export function cutByCrashText(options: { toolName: string; callId: string }): string {
  const { toolName, callId } = RESTATE_OPTION_RULES;
  checkOptions({
    subject: 'cutByCrashText',
    options,
    rules: { toolName, callId },
    required: ['toolName', 'callId'],
    error: invalidOptions,
  });
  return outcomeUnknownText({
    toolName: options.toolName,
    cause: `was cut off by a crash while it ran (call \`${options.callId}\`)`,
  });
}

/**
 * What the scheduler gets back for a journaled outcome: the tool's answer, or its throw. An
 * unknown outcome comes back flagged `outcomeUnknown`: the Dispatcher answers it as the soft error
 * `outcome_unknown` and never retries it.
 */
export function replayOutcome(
  outcome: StepOutcome,
  options: { toolName: string; callId: string },
): string | ToolOutput {
  switch (outcome.kind) {
    case 'text':
      return outcome.content;
    case 'output':
      return outcome.unknown === true
        ? { content: outcome.content, isError: true, outcomeUnknown: true }
        : { content: outcome.content, isError: outcome.isError };
    case 'threw':
      throw new Error(outcome.message);
    case 'other':
      // Not a string or { content }: handed on as it came, for the scheduler to answer a soft error.
      return outcome.value as string | ToolOutput;
    case 'unknown': {
      const { toolName } = options;
      const content =
        outcome.cause === undefined
          ? cutByCrashText(options)
          : outcomeUnknownText({ toolName, cause: outcome.cause });
      return { content, isError: true, outcomeUnknown: true };
    }
  }
}

function jsonSafe(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return String(value);
  }
}
