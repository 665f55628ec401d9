import type { ToolCall, ToolResult } from '@toolwaves/core';
import type { Model, ModelTurn } from './model.js';
import type { ScriptedTurn } from './scripted-session.js';

/**
 * The embedded model: plays a fixed script, turn by turn, with no network and no key. It checks
 * that every call of the previous turn was answered, in order, as a real provider would.
 */
export class ScriptedModel implements Model {
  readonly label = 'scripted (embedded, no network)';
  readonly #turns: readonly ScriptedTurn[];
  readonly #finalText: string;
  #turn = 0;
  #pending: readonly ToolCall[] = [];

  constructor(options: { turns: readonly ScriptedTurn[]; finalText?: string }) {
    this.#turns = options.turns;
    this.#finalText =
      options.finalText ?? 'Done: rounding fixed, discount module added, legacy file archived.';
  }

  async next(previous: readonly ToolResult[]): Promise<ModelTurn> {
    const expected = this.#pending.map((call) => call.id);
    const answered = previous.map((result) => result.toolCallId);
    if (expected.join() !== answered.join()) {
      throw new Error(
        `The provider would reject this turn: expected answers to [${expected.join(', ')}], got [${answered.join(', ')}]`,
      );
    }
    const turn = this.#turns[this.#turn];
    if (turn === undefined) {
      this.#pending = [];
      return { calls: [], text: this.#finalText };
    }
    const index = this.#turn;
    this.#turn += 1;
    this.#pending = turn.calls.map((call, n) => ({ ...call, id: `call_${index + 1}_${n + 1}` }));
    return { calls: this.#pending, text: turn.text };
  }
}
