/** One tool call as the model asked for it. */
export interface ToolCall {
  /** The provider's id for the call; its result carries the same id. */
  readonly id: string;
  /** The tool's registered name. */
  readonly name: string;
  /** The call's arguments, already parsed from JSON. */
  readonly input: unknown;
}
