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
