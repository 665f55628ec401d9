import { type Access, keysOverlap } from '@toolwaves/core';

/**
 * What a release-channel message says: a request left the queue (its accesses, tool and group),
 * `'any'` when that is not known (an exclusive request left, or expired entries were dropped),
 * or a waiter was handed the grant by the releasing script (its id and token).
 */
export type Departure =
  | { readonly access: readonly Access[]; readonly toolName: string; readonly group: string }
  | 'any'
  | { readonly handedTo: string; readonly token: number; readonly leaseStart?: number }
  | { readonly wakeGroup: string };

/** Who is waiting: what a {@link Departure} must touch to possibly unblock it. */
export interface WaitingFor {
  readonly access: readonly Access[];
  readonly toolName: string;
  /** The fleet cap of its tool, 0 for none. */
  readonly limit: number;
  /** Whether it waits for the whole namespace. */
  readonly exclusive: boolean;
  /** Its group (same tool, accesses, limit): a departure of its own group hands off instead. */
  readonly group: string;
}

/**
 * Reads a message of the release channel (`<accesses>\n<tool>\n<group>`, `~<group>` or `*`) or
 * of a coordinator's own channel (`+<id> <token> <lease start>`, the lease start in Redis ms).
 */
export function parseDeparture(message: string): Departure {
  if (message.startsWith('~')) return { wakeGroup: message.slice(1) };
  if (message.startsWith('+')) {
    const [handedTo = '', shownToken = '', shownStart] = message.slice(1).split(' ');
    const token = Number(shownToken);
    if (handedTo === '' || !Number.isSafeInteger(token) || token <= 0) return 'any';
    const leaseStart = Number(shownStart);
    return shownStart !== undefined && Number.isSafeInteger(leaseStart)
      ? { handedTo, token, leaseStart }
      : { handedTo, token };
  }
  const [accesses, toolName, group] = message.split('\n');
  if (toolName === undefined || group === undefined) return 'any';
  try {
    const pairs = JSON.parse(accesses as string) as [string, string][];
    return {
      access: pairs.map(([mode, key]) => ({ key, mode: mode === 'r' ? 'read' : 'write' })),
      toolName,
      group,
    };
  } catch {
    return 'any';
  }
}

/**
 * Whether a departure may unblock a waiter, so that it should try again. A waiter waits only for
 * holders and earlier waiters that conflict with it (an overlapping key with a write on either
 * side), that hold the namespace exclusively, or that count against its tool's limit, so only
 * their departure can change its answer; an unknown departure may change anything. A departure
 * of the waiter's own group does not wake it: the releasing script already handed the grant to
 * that group's waiters in order, as far as they could go.
 */
export function departureConcerns(departure: Departure, waiter: WaitingFor): boolean {
  if (departure === 'any') return true;
  if ('handedTo' in departure) return false;
  if ('wakeGroup' in departure) return departure.wakeGroup === waiter.group;
  if (departure.group === waiter.group) return false;
  if (waiter.exclusive) return true;
  if (waiter.limit > 0 && departure.toolName === waiter.toolName) return true;
  return departure.access.some((gone) =>
    waiter.access.some(
      (mine) => (gone.mode === 'write' || mine.mode === 'write') && keysOverlap(gone.key, mine.key),
    ),
  );
}
