import type { ToolCall, ToolResult } from '@toolwaves/core';

/** The batch's results in call order, with every empty slot. */
export function fillResultSlots(
  calls: readonly ToolCall[],
  slots: readonly (ToolResult | undefined)[],
): ToolResult[] {
  const results = new Array<ToolResult>(calls.length);
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    results[i] = slots[i] ?? {
      toolCallId: call.id,
      toolName: String(call.name),
      content: `dispatch produced no result for call \`${call.id}\` (\`${String(call.name)}\`)`,
      isError: true,
      durationMs: 0,
    };
  }
  return results;
}
