import type { CoordinationGrant, Tool } from '@toolwaves/core';
import type { AttemptAnswer } from '../attempt-answer.js';

/** An attempt's answer, and whether its tool ran (then post hooks and the health record see it). */
export interface Answered {
  readonly answer: AttemptAnswer;
  readonly toolRan: boolean;
  /** The tool's own answer was not an error (whatever the post hooks do), for the health record. */
  readonly toolOk?: boolean;
}

/** The tool to run and its validated input (what stages 2–4 pass on). */
export interface ToolInput {
  readonly tool: Tool;
  readonly value: unknown;
}

/** The tool, its input, and the fleet grant it runs under, if any (what stage 5 takes). */
export interface Granted extends ToolInput {
  readonly grant?: CoordinationGrant | undefined;
}

/**
 * What a stage hands on: the work so far, or an answer. An answer before the tool ran (unknown
 * tool, invalid input, blocked, no grant, timed out waiting) is a value like any other: the stages
 * that need a tool pass it on untouched.
 */
export type Staged<T> = T | Answered;

/** Whether a stage handed on an answer rather than work. */
export function isAnswered<T extends object>(staged: Staged<T>): staged is Answered {
  return 'answer' in staged;
}

/** A soft error before the tool ran. */
export function answeredEarly(answer: AttemptAnswer): Answered {
  return { answer, toolRan: false };
}

/** The tool's own answer (`toolOk` as it came: the health record counts it). */
export function toolAnswered(answer: AttemptAnswer): Answered {
  return { answer, toolRan: true, toolOk: !answer.isError };
}
