import type { ToolCall } from '@toolwaves/core';

/** Tokens a model spends on a call besides its arguments (name, id, framing). */
const CALL_OVERHEAD_TOKENS = 12;
/** Characters per token, the usual rough figure for English text and JSON. */
const CHARS_PER_TOKEN = 4;

/** Tokens of a call as the model writes it: ≈ 12 + (its arguments' JSON length) / 4. */
export function callTokens(call: Pick<ToolCall, 'input'>): number {
  return (
    CALL_OVERHEAD_TOKENS + Math.ceil((JSON.stringify(call.input) ?? '').length / CHARS_PER_TOKEN)
  );
}

/** Tokens of the text a model says: ≈ its length / 4. */
export function textTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
