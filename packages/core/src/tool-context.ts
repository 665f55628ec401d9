import type { Coordinator } from './coordinator.js';

/** What a tool is told about the call it is running. */
export interface ToolContext {
  readonly toolCallId: string;
  /** Aborted when the call must stop: cancellation, a timeout, or a hard error elsewhere in the batch. */
  readonly signal: AbortSignal;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  readonly attempt: number;
  /**
   * Set when a fleet {@link Coordinator} granted the call's locks: increases per key with every
   * grant, so a tool (or what it writes to) can refuse a writer whose lease has already expired.
   */
  readonly fencingToken?: number;
}
