import type { CoordinationGrant, CoordinationRequest } from '@toolwaves/core';
import { Observable } from 'rxjs';
import { lostLeaseAnswer, refusedGrantAnswer } from '../attempt-answer.js';
import { isPromiseLike, type MaybeAsync } from '../maybe-async.js';
import { giveBack } from '../outliving-tools.js';
import { answeredEarly, type Granted, type Staged, type ToolInput } from './answered.js';
import type { Attempt } from './attempt.js';

/**
 * Stage 4: with a fleet `coordinator`, the grant of what the call holds fleet-wide (its fleet
 * claim, from the same reading of its declarations as its plan node), asked in the submitter's
 * async context; its wait counts in `timeoutMs` and in `fleetWaitMs`. A refusal is the soft error
 * `coordination_failed`, a grant already lost the soft error `lease_lost`: the tool never runs.
 * A grant that comes after the attempt gave up is given back unused.
 */
export function fleetGrant(
  attempt: Attempt,
  input: ToolInput,
): Observable<Staged<Granted>> | Granted {
  const coordinator = attempt.batch.config.coordinator;
  // No coordinator: the input goes on as it is, with no grant (nothing made per attempt).
  if (coordinator === undefined) return input;
  const { call, toolName } = attempt.prepared;
  return new Observable<Staged<Granted>>((subscriber) => {
    attempt.fleetAsked();
    let grant: MaybeAsync<CoordinationGrant>;
    try {
      const { access, exclusive } = attempt.prepared.fleetClaim;
      const signal = attempt.context.signal;
      const request: CoordinationRequest = exclusive
        ? { toolCallId: call.id, toolName, access, exclusive, signal }
        : { toolCallId: call.id, toolName, access, signal };
      // The coordinator's named limits the call counts against go with it (none: not a field).
      const limits = attempt.prepared.limits.fleet;
      const asked = limits === undefined ? request : { ...request, limits };
      grant = attempt.place.submitter(() => coordinator.acquire(asked));
    } catch (error) {
      grant = Promise.reject(error);
    }
    const given = (value: CoordinationGrant): void => {
      if (subscriber.closed) {
        giveBack(value); // came too late: the tool never runs with it
        return;
      }
      attempt.fleetAnswered();
      if (value.lost.aborted) {
        giveBack(value);
        subscriber.next(answeredEarly(lostLeaseAnswer(toolName, value.lost.reason)));
      } else {
        subscriber.next({ tool: input.tool, value: input.value, grant: value });
      }
      subscriber.complete();
    };
    const refused = (error: unknown): void => {
      if (subscriber.closed) return;
      attempt.fleetAnswered();
      subscriber.next(answeredEarly(refusedGrantAnswer(toolName, error)));
      subscriber.complete();
    };
    if (isPromiseLike(grant)) grant.then(given, refused);
    else given(grant);
    return undefined;
  });
}
