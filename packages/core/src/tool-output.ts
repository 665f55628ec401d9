/** What a tool may return instead of a plain string, to flag its answer as an error. */
export interface ToolOutput {
  readonly content: string;
  readonly isError?: boolean;
}
