import type { CoordinationGrant } from '@toolwaves/core';
import type { AtOnceBatch } from './at-once-batch.js';
import type { AwaitingRenewal, FirstRenewals } from './first-renewals.js';
import type { FleetConnection } from './fleet-connection.js';
import type { FleetKeys } from './fleet-keys.js';
import { fleetScripts } from './fleet-scripts.js';
import { LeaseRenewal } from './lease-renewal.js';
import { ID_AT, RECORD_FLAG_AT, type RequestShape } from './request-shape.js';

/**
 * A granted request: its fencing token, its `lost` signal (aborted by its {@link LeaseRenewal}
 * when the lease could not be kept) and `release()`, which stops the renewals and takes the
 * request out in the background (resolving at once). Until its first renewal is due it waits in
 * its coordinator's {@link FirstRenewals} (no timer of its own: most grants are released before);
 * then its {@link LeaseRenewal} renews it every third of the lease.
 */
export class FleetGrant implements CoordinationGrant, AwaitingRenewal {
  readonly fencingToken: number;
  renewalDueAt = 0;
  previousAwaiting: AwaitingRenewal | undefined;
  nextAwaiting: AwaitingRenewal | undefined;
  /** Made when `lost` is first read, or when the lease is lost. */
  #lost: AbortController | undefined;
  /** Made when the first renewal is due (or at once, when the lease started long ago). */
  #lease: LeaseRenewal | undefined;
  #awaiting = false;
  readonly #context: GrantContext;
  readonly #shape: RequestShape;
  readonly #id: string;
  readonly #toolCallId: string;
  readonly #grantedFrom: number;
  readonly #recorded: boolean;
  #released = false;

  constructor(options: {
    context: GrantContext;
    shape: RequestShape;
    id: string;
    token: number;
    /** When the lease started on the local clock, at the latest. */
    grantedFrom: number;
    /** Whether Redis may hold a record of the request (it waited, or its tool is limited). */
    recorded: boolean;
    /** The call it was granted to, for the message of its loss. */
    toolCallId: string;
  }) {
    this.fencingToken = options.token;
    this.#context = options.context;
    this.#shape = options.shape;
    this.#id = options.id;
    this.#toolCallId = options.toolCallId;
    this.#grantedFrom = options.grantedFrom;
    this.#recorded = options.recorded;
    const { leaseMs } = options.context;
    // the loss margin (a fifth of the lease) comes before the first renewal would: a lease that
    // started long ago (a hand-off message delayed) is watched on its own from the start
    if (options.grantedFrom + leaseMs - leaseMs / 5 <= performance.now() + leaseMs / 3) {
      this.#startRenewing(false);
    } else {
      this.#awaiting = true;
      options.context.renewals.add(this);
    }
  }

  get lost(): AbortSignal {
    return this.#lostController().signal;
  }

  renewalDue(): void {
    this.#awaiting = false;
    this.#startRenewing(true);
  }

  #startRenewing(renewAtOnce: boolean): void {
    const context = this.#context;
    this.#lease = new LeaseRenewal({
      connection: context.connection,
      keys: context.keys,
      id: this.#id,
      leaseMs: context.leaseMs,
      grantedFrom: this.#grantedFrom,
      renewAtOnce,
      describe: `call ${this.#toolCallId} (${this.#shape.toolName}) on ${this.#shape.describe}`,
      onLost: (error) => this.#lostController().abort(error),
    });
  }

  #lostController(): AbortController {
    this.#lost ??= new AbortController();
    return this.#lost;
  }

  release(): Promise<void> {
    if (!this.#released) {
      this.#released = true;
      if (this.#awaiting) {
        this.#awaiting = false;
        this.#context.renewals.remove(this);
      }
      this.#lease?.stop();
      const { connection, batch } = this.#context;
      if (!this.#recorded && this.#shape.batchable) {
        batch.release({ shape: this.#shape, id: this.#id });
      } else {
        leaveQueue({
          connection,
          batch,
          shape: this.#shape,
          id: this.#id,
          flag: this.#recorded ? 'r' : '-',
        });
      }
    }
    return RELEASED;
  }
}

/** What the grants of one coordinator share. */
export interface GrantContext {
  readonly connection: FleetConnection;
  readonly batch: AtOnceBatch;
  readonly keys: FleetKeys;
  readonly leaseMs: number;
  /** Where grants wait for their first renewal. */
  readonly renewals: FirstRenewals;
}

const RELEASED = Promise.resolve();

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
