/** The Redis names one namespace uses; all share the hash tag `{namespace}` (one cluster slot). */
export interface FleetKeys {
  /** Ticket counter: the queue order. */
  readonly seq: string;
  /** Fencing counter: one per namespace, so tokens increase per key and across overlapping keys. */
  readonly fence: string;
  /** Sorted set of request ids by ticket: waiting and holding requests alike. */
  readonly queue: string;
  /** Set of the ids of waiting requests: a departure is announced only when it is not empty. */
  readonly waiting: string;
  /** Prefix of the per-request hashes (`acc`, `tool`, `held`, `token`), each with the lease TTL. */
  readonly requestPrefix: string;
  /** Channel announcing that something left the queue (a release or a cancelled wait). */
  readonly released: string;
}

/** The names for `namespace`, e.g. `toolwaves:{prod}:queue`. */
export function fleetKeys(namespace: string): FleetKeys {
  const prefix = `toolwaves:{${namespace}}:`;
  return {
    seq: `${prefix}seq`,
    fence: `${prefix}fence`,
    queue: `${prefix}queue`,
    waiting: `${prefix}waiting`,
    requestPrefix: `${prefix}req:`,
    released: `${prefix}released`,
  };
}
