/** What a tool may return instead of a plain string, to flag its answer as an error. */
export interface ToolOutput {
  readonly content: string;
  readonly isError?: boolean;
  /**
   * The answer says the call's effect is unknown: it was cut off while it ran and may or may not
   * have taken place (a durable turn's call cut off by a crash, a request whose reply was lost).
   * The Dispatcher answers the soft error `outcome_unknown` with this `content` (an error whatever
   * `isError` says), and never retries it automatically, as for a lost fleet lease. Word it with
   * `outcomeUnknownText`.
   */
  readonly outcomeUnknown?: boolean;
}
