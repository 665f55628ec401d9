import type { CoordinationGrant } from '@toolwaves/core';
import type { PlanNode } from '@toolwaves/planner';
import type { LingeringCalls, LingeringHold } from './lingering-calls.js';

/** A tool whose attempt was answered without it (timeout, lost lease, stop): it lingers. */
interface LateTool {
  /** Its keys, held until it settles (or the settle timeout). */
  hold: LingeringHold | undefined;
  /** Its fleet grant, released once, when it settles (never before: it may still write). */
  grant: CoordinationGrant | undefined;
}

/** What {@link ToolHolds.outlive} takes: the tool that outlives its attempt, and where it lingers. */
export interface OutlivingToolOptions {
  /** The tool's number among the call's tool runs. */
  readonly run: number;
  /** The dispatcher's lingering calls, which hold its keys. */
  readonly lingering: LingeringCalls;
  /** The call's declarations (its keys). */
  readonly node: PlanNode;
  readonly toolCallId: string;
  readonly toolName: string;
}

/**
 * What the tools of one call hold beyond their attempt's answer: the running tool's fleet grant
 * (and the listener for its loss), and, for each tool that outlived its attempt (it timed out,
 * lost its lease, or its call was stopped, and ignored its signal), its keys in the
 * dispatcher's {@link LingeringCalls} until it settles or the settle timeout passes, and its
 * fleet grant until it settles, however long that takes (the coordinator renews it meanwhile:
 * the tool may still write). Every grant is given back once, when its tool settles.
 *
 * The pipeline makes one only for a call that needs it (a fleet grant, or a tool that outlived
 * its attempt): calls without a coordinator that end on time allocate nothing for it.
 *
 * @example
 * ```ts
 * const holds = new ToolHolds();
 * holds.holdGrant(grant, () => lostLease(grant.lost.reason)); // before the tool runs
 * holds.releaseGrant();                                        // it settled on time
 * // or, interrupted while it runs:
 * holds.outlive({ run, lingering, node, toolCallId, toolName });
 * holds.settleLate(run);                                       // when it settles at last
 * ```
 * @see CallPipeline which runs the tools.
 */
export class ToolHolds {
  // TS-private members, not `#` ones, like the pipeline's: with a coordinator one is made for
  // every call.
  /** The fleet grant of the running tool, and its lost-lease listener. */
  private grant: CoordinationGrant | undefined;
  private onLost: (() => void) | undefined;
  /** Tools that outlived their attempt, by number, until they settle. */
  private late: Map<number, LateTool> | undefined;

  /** The running tool holds `grant`; `onLost` runs if the grant is lost while it runs. */
  holdGrant(grant: CoordinationGrant, onLost: () => void): void {
    this.grant = grant;
    this.onLost = onLost;
    grant.lost.addEventListener('abort', onLost, { once: true });
  }

  /** The running tool settled on time: its grant is given back, its loss no longer listened for. */
  releaseGrant(): void {
    const grant = this.grant;
    if (grant === undefined) return;
    this.detach(grant);
    ToolHolds.giveBack(grant);
  }

  /**
   * The running tool outlives its attempt: its keys stay held in the lingering calls until it
   * settles ({@link settleLate}) or the settle timeout passes; its grant (if any) until it settles.
   */
  outlive(options: OutlivingToolOptions): void {
    const grant = this.grant;
    if (grant !== undefined) this.detach(grant);
    const late: LateTool = { hold: undefined, grant };
    this.late ??= new Map();
    this.late.set(options.run, late);
    late.hold = options.lingering.hold({
      node: options.node,
      toolCallId: options.toolCallId,
      toolName: options.toolName,
    });
  }

  /** Tool number `run`, which outlived its attempt, settled: its keys and its grant are free. */
  settleLate(run: number): void {
    const late = this.late?.get(run);
    if (late === undefined) return;
    this.late?.delete(run);
    late.hold?.release();
    if (late.grant !== undefined) ToolHolds.giveBack(late.grant);
  }

  /**
   * Gives a grant back. `release()` never throws by contract; a rejection is swallowed all the
   * same, and a coordinator that breaks its contract does not break the batch.
   */
  static giveBack(grant: CoordinationGrant): void {
    try {
      grant.release().then(undefined, () => undefined);
    } catch {
      // A coordinator that breaks its contract does not break the batch.
    }
  }

  /** The running tool no longer holds `grant` here, and its loss is no longer listened for. */
  private detach(grant: CoordinationGrant): void {
    if (this.onLost !== undefined) grant.lost.removeEventListener('abort', this.onLost);
    this.grant = undefined;
    this.onLost = undefined;
  }
}
