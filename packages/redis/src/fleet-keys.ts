/**
 * The Redis names one namespace uses; all share the hash tag `{namespace}`, so they live in one
 * cluster slot. The per-key indexes and per-tool queues are named by {@link requestKeys}.
 */
export interface FleetKeys {
  /** The prefix of every name, `toolwaves:{namespace}:`. */
  readonly prefix: string;
  /** Ticket counter: the queue order. */
  readonly seq: string;
  /** Fencing token: `max(last + 1, Redis TIME in µs)`, so it never goes backwards. */
  readonly fence: string;
  /** Hash: request id → its tool (and `\t<token>` once granted). */
  readonly requests: string;
  /** Sorted set: request id → when its lease ends (Redis time, ms); waiting and holding alike. */
  readonly leases: string;
  /** Sorted set of the waiting request ids by ticket. */
  readonly queue: string;
  /** Set of the holding request ids. */
  readonly holders: string;
  /** Sorted set of the exclusive requests (whole namespace): 0 when holding, else the ticket. */
  readonly exclusive: string;
  /** Hash: tool → how many of its calls hold a grant (for limits). */
  readonly toolHolders: string;
  /** Set of the waiters that their last try found blocked by a key (not only by a limit). */
  readonly keyBlocked: string;
  /** Channel: what left the queue, and hand-offs (`+<id> <token>`). */
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
    holders: `${prefix}holders`,
    exclusive: `${prefix}exclusive`,
    toolHolders: `${prefix}tool-holders`,
    keyBlocked: `${prefix}key-blocked`,
    released: `${prefix}released`,
  };
}
