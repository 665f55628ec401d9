import type { CoordinationGrant } from '@toolwaves/core';
import type { AtOnceBatch } from './at-once-batch.js';
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
  /** Made when `lost` is first read, or when the lease is lost. */
  #lost: AbortController | undefined;
  readonly #lease: LeaseRenewal;
  readonly #connection: FleetConnection;
  readonly #batch: AtOnceBatch;
  readonly #shape: RequestShape;
  readonly #id: string;
  readonly #recorded: boolean;
  #released = false;

  constructor(options: {
    connection: FleetConnection;
    batch: AtOnceBatch;
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
    this.#batch = options.batch;
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
      onLost: (error) => this.#lostController().abort(error),
    });
  }

  get lost(): AbortSignal {
    return this.#lostController().signal;
  }

  #lostController(): AbortController {
    this.#lost ??= new AbortController();
    return this.#lost;
  }

  release(): Promise<void> {
    if (!this.#released) {
      this.#released = true;
      this.#lease.stop();
      if (!this.#recorded && this.#shape.batchable) {
        this.#batch.release({ shape: this.#shape, id: this.#id });
      } else {
        leaveQueue({
          connection: this.#connection,
          batch: this.#batch,
          shape: this.#shape,
          id: this.#id,
          flag: this.#recorded ? 'r' : '-',
        });
      }
    }
    return Promise.resolve();
  }
}

/**
 * Takes a request out (waiting or holding) with RELEASE, hands its keys on and announces its
 * departure. `flag` (ARGV[2]): `r` when Redis may hold a record of it, `-` when it was granted
 * at once with no limit, `+` when RELEASE-AT-ONCE already took it out. Not awaited: the caller
 * goes on at once. The connection's later commands are ordered after it (what the batch
 * gathered is sent first), and `close()` waits for it; if Redis is away, the entry expires with
 * its lease.
 */
export function leaveQueue(options: {
  connection: FleetConnection;
  batch: AtOnceBatch;
  shape: RequestShape;
  id: string;
  flag: 'r' | '-' | '+';
}): void {
  const command = options.shape.release.slice();
  command[ID_AT] = options.id;
  command[RECORD_FLAG_AT] = options.flag;
  options.batch.flushReleases();
  options.connection.inBackground(options.connection.run(fleetScripts().release, command));
}
