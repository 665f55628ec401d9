import type { CoordinationGrant, Coordinator, Tool, ToolCall } from '@toolwaves/core';
import { fleetClaimOf, readDeclarations } from '@toolwaves/core/internal';
import type { StepOutcome } from './step-outcome.js';

/** A grant held for one attempt, or why there is none (the tool must not run). */
export type GrantAnswer =
  | { readonly grant: CoordinationGrant }
  | { readonly refused: StepOutcome & { readonly kind: 'output' } };

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * Asks the fleet coordinator for what the call holds fleet-wide (the same claim as the
 * Dispatcher's: its declared accesses, or the whole namespace for a call that is not
 * concurrency-safe or whose declarations cannot be read). Called inside a journaled step's
 * action, so a replay whose step is journaled never asks, and a re-run asks again (and is given a
 * newer fencing token). A refusal, or a grant already lost, is an answer: the tool does not run.
 */
export async function acquireGrant(options: {
  readonly coordinator: Coordinator;
  readonly call: ToolCall;
  readonly tool: Tool;
  readonly input: unknown;
  readonly signal: AbortSignal;
}): Promise<GrantAnswer> {
  const { call, signal } = options;
  const { access, exclusive } = fleetClaimOf(readDeclarations(options.tool, options.input));
  const refused = (why: string): GrantAnswer => ({
    refused: {
      kind: 'output',
      content: `Tool \`${call.name}\` did not run: ${why}`,
      isError: true,
    },
  });
  let grant: CoordinationGrant;
  try {
    grant = await options.coordinator.acquire(
      exclusive
        ? { toolCallId: call.id, toolName: call.name, access, exclusive, signal }
        : { toolCallId: call.id, toolName: call.name, access, signal },
    );
  } catch (error) {
    return refused(`the fleet coordinator could not grant its accesses: ${messageOf(error)}`);
  }
  if (grant.lost.aborted) {
    await grant.release();
    return refused(`its fleet lease was lost before it started: ${messageOf(grant.lost.reason)}`);
  }
  return { grant };
}

/** What a tool run under a grant is given on top of its context. */
export interface GrantedRun {
  readonly signal: AbortSignal;
  readonly fencingToken?: number;
  readonly markCommitted: () => void;
}

/**
 * Runs `run` under `grant` and gives the grant back once it settled. The run's signal follows
 * `signal` and is aborted if the grant is lost; then the answer waits for the tool to settle
 * (inside a durable turn nothing may start beside a tool still running: its step must not end
 * first) and is the tool's own if it had passed a fenced commit (`markCommitted`), else "outcome
 * unknown" for the lost lease.
 */
export async function runUnderGrant(options: {
  readonly grant: CoordinationGrant;
  readonly signal: AbortSignal;
  readonly run: (granted: GrantedRun) => Promise<StepOutcome>;
}): Promise<StepOutcome> {
  const { grant } = options;
  const controller = new AbortController();
  const stop = (): void => controller.abort(options.signal.reason);
  if (options.signal.aborted) stop();
  else options.signal.addEventListener('abort', stop, { once: true });
  let committed = false;
  const granted: GrantedRun = {
    signal: controller.signal,
    markCommitted: () => {
      committed = true;
    },
    ...(grant.fencingToken === undefined ? {} : { fencingToken: grant.fencingToken }),
  };
  let onLost: (() => void) | undefined;
  const lost = new Promise<'lost'>((resolve) => {
    onLost = () => resolve('lost');
    if (grant.lost.aborted) onLost();
    else grant.lost.addEventListener('abort', onLost, { once: true });
  });
  try {
    const running = options.run(granted);
    const first = await Promise.race([running, lost]);
    if (first !== 'lost') return first;
    const reason = grant.lost.reason;
    controller.abort(reason ?? new Error('lease lost'));
    const settled = await running;
    if (committed) return settled;
    const why = reason === undefined ? '' : ` (${messageOf(reason)})`;
    return { kind: 'unknown', cause: `lost its fleet lease while it ran${why}` };
  } finally {
    options.signal.removeEventListener('abort', stop);
    if (onLost !== undefined) grant.lost.removeEventListener('abort', onLost);
    await grant.release();
  }
}
