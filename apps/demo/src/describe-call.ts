import type { ToolCall } from '@toolwaves/core';

/**
 * A call in a few words for the terminal: `read_file(src/a.ts)`, `move_file(a → b)`,
 * `grep("TODO" in src)`.
 */
export function describeCall(call: Pick<ToolCall, 'name' | 'input'>): string {
  const input = (typeof call.input === 'object' && call.input !== null ? call.input : {}) as Record<
    string,
    unknown
  >;
  const text = (key: string) =>
    typeof input[key] === 'string' ? (input[key] as string) : undefined;
  let args: string;
  if (text('from') !== undefined || text('to') !== undefined) {
    args = `${text('from') ?? '?'} → ${text('to') ?? '?'}`;
  } else if (text('pattern') !== undefined) {
    args = `${JSON.stringify(text('pattern'))}${text('path') === undefined ? '' : ` in ${text('path')}`}`;
  } else {
    args = text('path') ?? '';
  }
  return `${call.name}(${args})`;
}

/**
 * The demo's one name for a call, the same in the live view, the trace and the JSON report:
 * `#2.3` is the third call of turn 2 (both counted from 1).
 */
export function callLabel(position: { readonly turn: number; readonly index: number }): string {
  return `#${position.turn}.${position.index + 1}`;
}

/** Each call's {@link callLabel}, by its id: for the trace, which knows calls by id. */
export function callLabelsById(
  turns: readonly { readonly turn: number; readonly calls: readonly Pick<ToolCall, 'id'>[] }[],
): Map<string, string> {
  return new Map(
    turns.flatMap((turn) =>
      turn.calls.map((call, index) => [call.id, callLabel({ turn: turn.turn, index })] as const),
    ),
  );
}
