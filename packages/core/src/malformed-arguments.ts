/**
 * The input of a call whose arguments arrived as text that is not valid JSON. The call is still
 * answered: `validateInput` refuses it with a message saying so, and the planner sees it as not
 * concurrency-safe.
 *
 * @see fromOpenAIToolCalls
 */
export class MalformedArguments {
  /** The text the provider sent. */
  readonly raw: string;
  /** Why it could not be parsed. */
  readonly reason: string;

  constructor(options: { raw: string; reason: string }) {
    this.raw = options.raw;
    this.reason = options.reason;
  }

  /**
   * Parses a JSON arguments string; an empty string means `{}`. Anything unparsable comes back as
   * a `MalformedArguments`.
   */
  static parse(raw: string): unknown {
    if (raw.trim() === '') return {};
    try {
      return JSON.parse(raw) as unknown;
    } catch (error) {
      return new MalformedArguments({
        raw,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
