/**
 * A count and its noun, singular for one: `plural(1, 'byte')` is `'1 byte'`, `plural(2, 'byte')`
 * is `'2 bytes'` (regular plurals only).
 */
export function plural(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}
