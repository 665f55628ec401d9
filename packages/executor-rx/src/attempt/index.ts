import { isObservable, type Observable, of, type Subscription } from 'rxjs';
import { andThen } from './and-then.js';
import {
  type Answered,
  type Granted,
  isAnswered,
  type Staged,
  type ToolInput,
} from './answered.js';
import type { Attempt } from './attempt.js';
import { executeTool } from './execute-tool.js';
import { fleetGrant } from './fleet-grant.js';
import { keysClear } from './keys-clear.js';
import { postHooks, recordHealth } from './post-hooks.js';
import { preHooks } from './pre-hooks.js';
import { type Concluded, finish, recover } from './recovery.js';
import {
  type Stage,
  StageRun,
  type StagesEnd,
  type StageWork,
  stageWorkObservable,
} from './stage-run.js';
import { underTimeout } from './under-timeout.js';
import { validate } from './validate.js';

export { Attempt, startAttempt } from './attempt.js';
export { AttemptContext } from './attempt-context.js';
export type { Concluded } from './recovery.js';
export type { StageRun, StagesEnd } from './stage-run.js';

/**
 * One attempt of one call, stage by stage, the same in every mode. Each stage is in its own file
 * of this folder, in this order:
 *
 * 1. `validate.ts`      the tool and its input (unknown tool, invalid input: an answer);
 * 2. `pre-hooks.ts`     allow, block (an answer) or abort (the batch's hard error);
 * 3. `keys-clear.ts`    wait for tools of this dispatcher that outlived their answer;
 * 4. `fleet-grant.ts`   the coordinator's grant (refused or lost: an answer);        } under
 * 5. `execute-tool.ts`  `call-start`, then the tool; a lost lease, the tool outliving; } `timeoutMs`
 * 6. `post-hooks.ts`    the post hooks observe a tool's answer (a throw overrules it);
 * 7. `post-hooks.ts`    the health record of a tool that ran;
 * 8. `recovery.ts`      finish, retry after a back-off, or fail the batch.
 */
const STAGES: readonly Stage<Attempt>[] = [
  validateStage, // 1
  preHooksStage, // 2
  keysClearStage, // 3
  grantedRunStage, // 4, 5
  afterAnswer, // 6, 7, 8
];

/**
 * The stages of `attempt` ({@link STAGES}), run one after another by a {@link StageRun}: `end`
 * hears how the attempt concluded, or its hard error. Not started yet: its owner keeps it as the
 * attempt's work first, then starts it.
 *
 * An answer that comes before the tool ran is a value the tool stages pass on (`Staged`); a hard
 * error is a stage's Observable's `error`. A stage with nothing to do hands its value on as it is,
 * and one with nothing to wait for hands it on at once: an attempt is only as asynchronous as its
 * tool, hooks and grant are, and subscribes to nothing else. The attempt's timings are written by
 * `Attempt` alone, as the stages report to it.
 */
export function attemptRun(
  attempt: Attempt,
  destination: Subscription,
  end: StagesEnd<Attempt, Concluded>,
): StageRun<Attempt, Concluded> {
  return new StageRun(STAGES, attempt, destination, end);
}

// The stages below take the attempt as their second argument (`andThen` passes it on): they are
// made once, not as closures for every attempt of every call. An answer goes past the stages
// that need the work so far untouched.

/** Stage 1. */
function validateStage(_: undefined, attempt: Attempt): Staged<ToolInput> {
  return validate(attempt);
}

/** Stage 2 (nothing to do without pre hooks). */
function preHooksStage(
  staged: Staged<ToolInput>,
  attempt: Attempt,
): Observable<Staged<ToolInput>> | Staged<ToolInput> {
  if (attempt.batch.config.preHooks.length === 0 || isAnswered(staged)) return staged;
  return preHooks(attempt, staged);
}

/** Stage 3. */
function keysClearStage(
  staged: Staged<ToolInput>,
  attempt: Attempt,
): Observable<ToolInput> | Staged<ToolInput> {
  return isAnswered(staged) ? staged : keysClear(attempt, staged);
}

/** Stages 4 and 5, the fleet grant and the tool, under the attempt's `timeoutMs`. */
function grantedRunStage(
  staged: Staged<ToolInput>,
  attempt: Attempt,
): StageWork<Answered> | Observable<Answered> | Answered {
  if (isAnswered(staged)) return staged;
  const { coordinator, timeoutMs } = attempt.batch.config;
  // No grant to wait for (stage 4 hands the input on as it is) and no timeout to race: the tool's
  // run is started by the attempt's stage run itself, no Observable made for it.
  if (coordinator === undefined && timeoutMs === undefined) return executeTool(attempt, staged);
  return underTimeout(attempt, lifted(andThen(fleetGrant(attempt, staged), executeStage, attempt)));
}

/** Stage 5, composed with the grant and the timeout. */
function executeStage(staged: Staged<Granted>, attempt: Attempt): Observable<Answered> | Answered {
  return isAnswered(staged) ? staged : stageWorkObservable(executeTool(attempt, staged));
}

/** Stages 6 to 8, once the answer came: one step when none of them waits for anything. */
function afterAnswer(answered: Answered, attempt: Attempt): Observable<Concluded> | Concluded {
  arrived(attempt, answered);
  const { postHooks: post, recovery } = attempt.batch.config;
  const observed = post.length === 0 || !answered.toolRan ? answered : postHooks(attempt, answered); // 6
  const recorded = andThen(observed, healthStage, attempt); // 7
  return recovery === undefined
    ? andThen(recorded, finishStage, attempt)
    : andThen(recorded, recoveryStage, attempt); // 8
}

/** Stage 7 (attempts that ran the tool). */
function healthStage(answered: Answered, attempt: Attempt): Answered {
  return answered.toolRan ? recordHealth(attempt, answered) : answered;
}

/** Stage 8 without recovery: the answer is final. */
function finishStage(answered: Answered): Concluded {
  return finish(answered.answer);
}

/** Stage 8 with recovery. */
function recoveryStage(answered: Answered, attempt: Attempt): Observable<Concluded> {
  return recover(attempt, answered.answer);
}

/** A stage's result as an Observable (a stage with nothing to wait for hands on a value). */
function lifted<T>(result: Observable<T> | T): Observable<T> {
  return isObservable(result) ? result : of(result);
}

/** The attempt's answer came: its duration; an answer before its tool ran gets its `call-start`. */
function arrived(attempt: Attempt, answered: Answered): Answered {
  attempt.answered();
  if (!answered.toolRan && !attempt.open) attempt.emitStart();
  return answered;
}
