/** Options of {@link arrivalTimes}. */
export interface ArrivalTimesOptions {
  /** Length of each call's arguments as JSON, in characters, in model order. */
  readonly argumentChars: readonly number[];
  /** Tokens the model writes per second (default {@link DEFAULT_TOKENS_PER_SECOND}). */
  readonly tokensPerSecond?: number;
}

/** The bench's default writing speed of a model, tokens per second. */
export const DEFAULT_TOKENS_PER_SECOND = 80;

/**
 * The token model of a streamed turn (pure): the model writes the calls one after another,
 * each costing `12 + argumentChars / 4` tokens (the call's envelope and name, then its
 * arguments at about four characters a token); a call arrives when its last token is written.
 * Times in ms from the first tool-call token.
 *
 * @example arrivalTimes({ argumentChars: [28, 28], tokensPerSecond: 80 }); // [237.5, 475]
 */
export function arrivalTimes(options: ArrivalTimesOptions): number[] {
  const rate = options.tokensPerSecond ?? DEFAULT_TOKENS_PER_SECOND;
  let tokens = 0;
  return options.argumentChars.map((chars) => {
    tokens += 12 + chars / 4;
    return (tokens / rate) * 1000;
  });
}
