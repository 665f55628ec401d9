import { abortableDelay, type ToolCall, type ToolResult } from '@toolwaves/core';
import type { Model, ModelTurn, TurnWriting } from './model.js';
import type { ScriptedTurn } from './scripted-session.js';
import { callTokens, textTokens } from './turn-tokens.js';

/** Options of {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  readonly turns: readonly ScriptedTurn[];
  readonly finalText?: string;
  /**
   * How fast the model writes: each turn streams its text, then its calls, at this many tokens a
   * second (`Infinity`: the whole turn at once). Default {@link DEFAULT_TOKENS_PER_SECOND}.
   */
  readonly tokensPerSecond?: number;
  /** Clock for the turn's writing times. Default `performance.now`. */
  readonly now?: () => number;
  /** Stops the writing in progress. */
  readonly signal?: AbortSignal;
}

/**
 * How fast the embedded model writes by default: what the fast hosted models agents use stream
 * (Gemini Flash, GPT-4.1 mini, Claude Haiku: about 100 to 250 tokens a second). A call of a few
 * arguments is then written in about 0.1 s, less than a grep or a glob takes.
 */
export const DEFAULT_TOKENS_PER_SECOND = 200;

/** The scripted model's last words, once its turns are over. */
export const SCRIPTED_FINAL_TEXT =
  'Done: rounding fixed, discount module added, legacy file archived.';

/**
 * The embedded model: plays a fixed script, turn by turn, with no network and no key, streaming
 * each turn at a token rate (its text, then each call, a call's tokens following from its
 * arguments' length: see {@link callTokens}). It checks that every call of the previous turn was
 * answered, in order, as a real provider would.
 */
export class ScriptedModel implements Model {
  readonly label = 'scripted (embedded, no network)';
  readonly #turns: readonly ScriptedTurn[];
  readonly #finalText: string;
  readonly #msPerToken: number;
  readonly #now: () => number;
  readonly #signal: AbortSignal | undefined;
  #turn = 0;
  #pending: readonly ToolCall[] = [];

  constructor(options: ScriptedModelOptions) {
    this.#turns = options.turns;
    this.#finalText = options.finalText ?? SCRIPTED_FINAL_TEXT;
    this.#msPerToken = 1000 / (options.tokensPerSecond ?? DEFAULT_TOKENS_PER_SECOND);
    this.#now = options.now ?? (() => performance.now());
    this.#signal = options.signal;
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
    const index = this.#turn;
    if (turn !== undefined) this.#turn += 1;
    this.#pending =
      turn === undefined
        ? []
        : turn.calls.map((call, n) => ({ ...call, id: `call_${index + 1}_${n + 1}` }));
    const writing: TurnWriting = {
      text: turn === undefined ? this.#finalText : turn.text,
      startedAt: this.#now(),
      firstCallTokenAt: undefined,
      endedAt: undefined,
    };
    return { calls: this.#write(this.#pending, writing), writing };
  }

  /** Streams the turn: waits out the text's tokens, then each call's, yielding each call whole. */
  async *#write(calls: readonly ToolCall[], writing: TurnWriting): AsyncGenerator<ToolCall> {
    await this.#spend(textTokens(writing.text ?? ''));
    for (const call of calls) {
      writing.firstCallTokenAt ??= this.#now();
      await this.#spend(callTokens(call));
      yield call;
    }
    writing.endedAt = this.#now();
  }

  async #spend(tokens: number): Promise<void> {
    const ms = tokens * this.#msPerToken;
    if (ms > 0) await abortableDelay(ms, this.#signal ?? new AbortController().signal);
  }
}
