/** One tool call as the model asked for it. */
export interface ToolCall {
  /** The provider's id for the call; its result carries the same id. */
  readonly id: string;
  /** The tool's registered name. */
  readonly name: string;
  /** The call's arguments, already parsed from JSON. */
  readonly input: unknown;
  /**
   * Ordering edges: ids of earlier calls of the same turn this call must follow. In every mode
   * it starts only after each has ended (waves put it in a later wave), and under
   * `onFailure: 'skip-dependents'` a failed one skips it. An id that no earlier call of the turn
   * has (unknown, this call's own, a later call's, a cycle) is refused with an error naming the
   * call and the id.
   */
  readonly after?: readonly string[];
}
