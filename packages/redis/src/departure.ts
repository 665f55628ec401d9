import { type Access, keysOverlap } from '@toolwaves/core';

/**
 * What left a namespace's queue, as announced on its release channel: the accesses and tool of
 * a released (or given-up) request, or `'any'` when it is not known (an expired entry dropped).
 */
export type Departure = { readonly access: readonly Access[]; readonly toolName: string } | 'any';

/** Who is waiting: what a {@link Departure} must touch to possibly unblock it. */
export interface WaitingFor {
  readonly access: readonly Access[];
  readonly toolName: string;
  /** The fleet cap of its tool, 0 for none. */
  readonly limit: number;
}

/** Reads a release-channel message: `<accesses JSON>\n<tool>`, or `*` for `'any'`. */
export function parseDeparture(message: string): Departure {
  const newline = message.indexOf('\n');
  if (newline < 0) return 'any';
  try {
    const pairs = JSON.parse(message.slice(0, newline)) as [string, string][];
    return {
      access: pairs.map(([mode, key]) => ({ key, mode: mode === 'r' ? 'read' : 'write' })),
      toolName: message.slice(newline + 1),
    };
  } catch {
    return 'any';
  }
}

/**
 * Whether a departure may unblock a waiter. A waiter waits only for holders and earlier waiters
 * that conflict with it (an overlapping key with a write on either side) or that count against
 * its tool's limit, so only their departure can change its answer; an unknown departure may
 * change anything.
 */
export function departureConcerns(departure: Departure, waiter: WaitingFor): boolean {
  if (departure === 'any') return true;
  if (waiter.limit > 0 && departure.toolName === waiter.toolName) return true;
  return departure.access.some((gone) =>
    waiter.access.some(
      (mine) => (gone.mode === 'write' || mine.mode === 'write') && keysOverlap(gone.key, mine.key),
    ),
  );
}
