/** The message of a thrown value: `error.message` for errors, the value as text otherwise. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
