import { checkOptions } from './check-options.js';
import { optionRules } from './option-rule.js';
import { invalidOptions } from './toolwaves-error.js';

/** Options of {@link outcomeUnknownText}. */
export interface OutcomeUnknownTextOptions {
  /** The tool whose effect is in doubt. */
  readonly toolName: string;
  /**
   * What cut it off, as a predicate that follows the tool's name: `lost its fleet lease while it
   * ran (lease expired)`, `was cut off by a crash while it ran (call \`c1\`)`.
   */
  readonly cause: string;
}

/**
 * The words of the soft error `outcome_unknown`: a tool was cut off while it ran, so its effect
 * may or may not have taken place, and it was not retried. One wording for every cause (a lost
 * fleet lease, a crash in a durable turn), so the model and the people reading a transcript meet
 * one sentence for one situation.
 *
 * @example
 * ```ts
 * outcomeUnknownText({ toolName: 'charge', cause: 'was cut off by a crash while it ran' });
 * // 'Tool `charge` was cut off by a crash while it ran: its effect is unknown (it may or may
 * //  not have taken place); it was not retried'
 * ```
 * @throws ToolwavesError `invalid_options` for options that are not two non-empty strings.
 * @see ToolOutput.outcomeUnknown
 */
export function outcomeUnknownText(options: OutcomeUnknownTextOptions): string {
  checkOptions({
    subject: 'outcomeUnknownText',
    options,
    rules: { toolName: optionRules.nonEmptyString, cause: optionRules.nonEmptyString },
    required: ['toolName', 'cause'],
    error: invalidOptions,
  });
  return `Tool \`${options.toolName}\` ${options.cause}: its effect is unknown (it may or may not have taken place); it was not retried`;
}
