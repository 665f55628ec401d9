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
  /**
   * Set when a fleet coordinator granted the call's locks. A tool calls it the moment a fenced
   * commit of its effect has passed the fence: if the grant is lost after that, the call is
   * answered with the tool's own result (the loss noted in its `call-end` event) instead of
   * `outcome_unknown`.
   */
  readonly markCommitted?: () => void;
  /**
   * Set when the call runs as a step of a durable turn (`@toolwaves/restate`): the same for
   * every run of one attempt (turn id, call id, attempt), across crashes and replays, so a tool
   * can pass it on to an API that deduplicates (a payment, an upsert).
   */
  readonly idempotencyKey?: string;
}
