/** How much of a file's beginning is inspected to tell text from binary. */
export const BINARY_SNIFF_BYTES = 8192;

/**
 * Whether the beginning of a file looks binary: a NUL byte in its first
 * {@link BINARY_SNIFF_BYTES} bytes (the test `git` and `grep` use).
 *
 * @example looksBinary(Buffer.from('a\0b')) // true
 */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}
