/**
 * The Redis names one namespace uses; all share the hash tag `{namespace}`, so they live in one
 * cluster slot. What each holds is described in `scripts/includes/request.lua`; the per-tool
 * waiting list and the per-group queue are named by {@link requestShape}.
 */
export interface FleetKeys {
  /** The prefix of every name, `toolwaves:{namespace}:`. */
  readonly prefix: string;
  /** Ticket counter: the queue order. */
  readonly seq: string;
  /** Fencing token: `max(last + 1, Redis TIME in µs)`, so it never goes backwards. */
  readonly fence: string;
  /** Hash: request id → its record (tool, limit, hand-off channel, ticket, token), for the requests that wait or count against a limit. */
  readonly requests: string;
  /** Sorted set: request id → when its lease ends (Redis time, ms); waiting and holding alike. */
  readonly leases: string;
  /** Sorted set of the waiting request ids by ticket. */
  readonly queue: string;
  /** Sorted set of the exclusive requests (whole namespace): 0 when holding, else the ticket. */
  readonly exclusive: string;
  /** Hash: limited tool → how many of its calls hold a grant. */
  readonly toolHolders: string;
  /** Set of the waiters that their last try found blocked by a key (not only by a limit). */
  readonly keyBlocked: string;
  /** Lex sorted set: `=K` for every key with an entry, `*` while an exclusive request is there. */
  readonly present: string;
  /** Lex sorted set of every request's entries, `K \0 mode ticket id`, one per access. */
  readonly entries: string;
  /** Channel every coordinator listens to: what left the queue. */
  readonly released: string;
}

/** The names for `namespace`, e.g. `toolwaves:{prod}:queue`. */
export function fleetKeys(namespace: string): FleetKeys {
  const prefix = `toolwaves:{${namespace}}:`;
  return {
    prefix,
    seq: `${prefix}seq`,
    fence: `${prefix}fence`,
    requests: `${prefix}requests`,
    leases: `${prefix}leases`,
    queue: `${prefix}queue`,
    exclusive: `${prefix}exclusive`,
    toolHolders: `${prefix}tool-holders`,
    keyBlocked: `${prefix}key-blocked`,
    present: `${prefix}present`,
    entries: `${prefix}entries`,
    released: `${prefix}released`,
  };
}
