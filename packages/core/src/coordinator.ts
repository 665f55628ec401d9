import type { Access } from '@toolwaves/planner';

/**
 * What the Dispatcher asks a {@link Coordinator} for, once per attempt, after the call's turn
 * inside its own batch has come and just before its tool executes.
 */
export interface CoordinationRequest {
  /** The id of the call asking (its `ToolCall.id`). */
  readonly toolCallId: string;
  /** The tool the call runs. */
  readonly toolName: string;
  /**
   * The accesses the call declared (`access(input)`, or `resourceKey(input)` as one write);
   * empty when it declared none. Hold all of them, or none.
   */
  readonly access: readonly Access[];
  /**
   * `true` when the call may not run alongside any other: it is not concurrency-safe (unless the
   * Dispatcher's `fleetExclusiveForUnsafe: false` gave that up), or its declarations could not be
   * read (`access` / `resourceKey` / `isConcurrencySafe` threw or answered something malformed):
   * hold the whole namespace exclusively, or refuse. Fails closed: such a call never runs beside
   * another call of the fleet.
   */
  readonly exclusive?: boolean;
  /**
   * The named limits the call counts against that this coordinator has (its
   * {@link Coordinator.limits}), with the call's weight in each; absent when none. Hold a share
   * of each, or refuse.
   */
  readonly limits?: Readonly<Record<string, number>>;
  /** Aborted when the call stops waiting (cancellation or its `timeoutMs`): give up and reject. */
  readonly signal: AbortSignal;
}

/** A coordinator's answer: the call may run until it calls `release()`. */
export interface CoordinationGrant {
  /** Increases per key with every grant; reaches the tool as `ToolContext.fencingToken`. */
  readonly fencingToken?: number;
  /**
   * Aborted if the grant is lost while it is held (a lease that could not be renewed in time),
   * before anyone else can be granted what it held: the Dispatcher then stops the tool. A call
   * whose tool had already started is answered with a soft error saying its outcome is unknown
   * (`outcome_unknown`), and it is never retried automatically; one whose tool had not started
   * is answered `lease_lost`.
   */
  readonly lost: AbortSignal;
  /**
   * Gives everything back. Called exactly once, when the tool has settled (its `execute`
   * resolved or rejected), or at once when it never started; never while the tool may still
   * write, even after its call was answered (timeout, cancellation) and even past the
   * Dispatcher's `settleTimeoutMs`. The grant is kept alive (renewed) until then. Never throws.
   */
  release(): Promise<void>;
}

/**
 * Coordinates calls beyond one process (Dispatcher option `coordinator`): before a call
 * executes it must hold what it declared across every process sharing the coordinator. The
 * in-process default ({@link noCoordination}) grants everything at once.
 *
 * `acquire` rejects when the grant cannot be had (the backend is unreachable, or `signal` was
 * aborted); the call is then answered with a soft error naming the cause and never runs.
 *
 * @see noCoordination
 */
export interface Coordinator {
  /**
   * The named limits this coordinator caps fleet-wide, with their capacities: a call whose tool
   * declares one of these names (`Tool.limits`) sends its weight in `CoordinationRequest.limits`.
   */
  readonly limits?: Readonly<Record<string, number>>;
  acquire(request: CoordinationRequest): Promise<CoordinationGrant>;
}

const NEVER_LOST = new AbortController().signal;
const NO_GRANT: CoordinationGrant = { lost: NEVER_LOST, release: () => Promise.resolve() };

/**
 * The coordinator used when none is configured: grants every request at once, holds nothing.
 *
 * @example
 * ```ts
 * new Dispatcher({ registry, coordinator: noCoordination });
 * ```
 */
export const noCoordination: Coordinator = {
  acquire: () => Promise.resolve(NO_GRANT),
};
