import type { CoordinationGrant } from '@toolwaves/core';
import type { FleetConnection } from './fleet-connection.js';
import type { FleetKeys } from './fleet-keys.js';
import { fleetScripts } from './fleet-scripts.js';
import { LeaseRenewal } from './lease-renewal.js';
import { ID_AT, RECORD_FLAG_AT, type RequestShape } from './request-shape.js';

/**
 * A granted request: its fencing token, its `lost` signal (aborted by its {@link LeaseRenewal}
 * when the lease could not be kept) and `release()`, which stops the renewals and takes the
 * request out in the background (resolving at once).
 */
export class FleetGrant implements CoordinationGrant {
  readonly fencingToken: number;
  readonly #lost = new AbortController();
  readonly #lease: LeaseRenewal;
  readonly #connection: FleetConnection;
  readonly #shape: RequestShape;
  readonly #id: string;
  readonly #recorded: boolean;
  #released = false;

  constructor(options: {
    connection: FleetConnection;
    keys: FleetKeys;
    shape: RequestShape;
    id: string;
    token: number;
    leaseMs: number;
    /** When the lease started on the local clock, at the latest. */
    grantedFrom: number;
    /** Whether Redis may hold a record of the request (it waited, or its tool is limited). */
    recorded: boolean;
    /** What the lease covers, for the message of its loss. */
    describe: string;
  }) {
    this.fencingToken = options.token;
    this.#connection = options.connection;
    this.#shape = options.shape;
    this.#id = options.id;
    this.#recorded = options.recorded;
    this.#lease = new LeaseRenewal({
      connection: options.connection,
      keys: options.keys,
      id: options.id,
      leaseMs: options.leaseMs,
      grantedFrom: options.grantedFrom,
      describe: options.describe,
      onLost: (error) => this.#lost.abort(error),
    });
  }

  get lost(): AbortSignal {
    return this.#lost.signal;
  }

  release(): Promise<void> {
    if (!this.#released) {
      this.#released = true;
      this.#lease.stop();
      leaveQueue({
        connection: this.#connection,
        shape: this.#shape,
        id: this.#id,
        recorded: this.#recorded,
      });
    }
    return Promise.resolve();
  }
}

/**
 * Takes a request out (waiting or holding), hands its keys on and announces its departure. Not
 * awaited: the caller goes on at once. The connection's later commands are ordered after it,
 * and `close()` waits for it; if Redis is away, the entry expires with its lease.
 */
export function leaveQueue(options: {
  connection: FleetConnection;
  shape: RequestShape;
  id: string;
  recorded: boolean;
}): void {
  const command = options.shape.release.slice();
  command[ID_AT] = options.id;
  command[RECORD_FLAG_AT] = options.recorded ? 'r' : '-';
  options.connection.inBackground(options.connection.run(fleetScripts().release, command));
}
