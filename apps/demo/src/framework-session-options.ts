import type { ToolRegistry, TurnSource } from '@toolwaves/core';
import { callLabel } from './describe-call.js';
import type { ScriptedTurn } from './scripted-session.js';

/** What the demo's task says to a framework's agent. */
export const FRAMEWORK_TASK =
  'Explore this small TypeScript project, fix the rounding TODO in src/price.ts, then check the project.';

/** Options of a framework session (`runLangChainSession` and its two siblings). */
export interface FrameworkSessionOptions {
  /** The demo's tools: the framework's own tools are made from them. */
  readonly registry: ToolRegistry;
  /**
   * Decides when each of the framework's calls starts; `undefined`: the framework alone, which
   * starts all of a turn's calls at once (for the comparison).
   */
  readonly dispatcher: TurnSource | undefined;
  /** The scripted model's turns, replayed by the framework's own fake model. */
  readonly turns: readonly ScriptedTurn[];
  /** The framework's abort signal for the whole run. */
  readonly signal: AbortSignal;
  /** The fake model is asked for turn `turn` (from 1): what it says and how many calls it makes. */
  readonly onTurn: (turn: number, text: string, calls: number) => void;
}

/**
 * The id the framework's fake model gives call `index` of turn `turn` (both from 0): the same id
 * as the demo's own scripted model gives it (`call_2_3` is `#2.3`). The framework keeps it (it
 * pairs results with calls by it); what the user reads is the call's label (`callLabel`).
 */
export function scriptedCallId(turn: number, index: number): string {
  return `call_${turn + 1}_${index + 1}`;
}

/**
 * Each scripted call's label (`#2.3`), by the id the framework knows it by: the live view and the
 * JSON report of `--framework` name calls as the other modes do.
 */
export function frameworkCallLabels(turns: readonly ScriptedTurn[]): Map<string, string> {
  return new Map(
    turns.flatMap((turn, t) =>
      turn.calls.map(
        (_, index) => [scriptedCallId(t, index), callLabel({ turn: t + 1, index })] as const,
      ),
    ),
  );
}
