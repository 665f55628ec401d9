import type { FenceBeacon } from './fence-beacon.js';

/** The key that overlaps every key: what a whole-fence step (compacting the records) holds. */
export const EVERY_KEY = '\0every key';

let sequence = 0;
/** The last `Date.now()` an id was made at, and its decimal text: made once per millisecond. */
let lastMs = 0;
let lastMsText = '0';

/**
 * One commit's claim to its turn: an entry in its process's slot (see {@link FenceBeacon}),
 * present while it claims its turn. Ids sort by creation time, so the older intent has
 * priority, and are never reused.
 */
export class CommitIntent {
  /** Sorts by creation time (then sequence and process). */
  readonly id: string;
  readonly keys: readonly string[];
  readonly #beacon: FenceBeacon;
  #claiming = false;

  constructor(options: { readonly beacon: FenceBeacon; readonly keys: readonly string[] }) {
    sequence += 1;
    // milliseconds in decimal (13 digits until the year 2286: strings of one length sort as
    // their numbers), then the sequence and the beacon's id. The beacon's id is random per
    // process: two processes never make the same id, even with the same pid in two PID
    // namespaces (equal ids would wait for each other)
    const ms = Date.now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastMsText = String(ms);
    }
    this.id = `${lastMsText}-${sequence}-${options.beacon.id}`;
    this.keys = options.keys;
    this.#beacon = options.beacon;
  }

  /** Claims the turn: the intent is in the process's slot when this returns. */
  claim(): void {
    if (this.#claiming) return;
    this.#beacon.activate({ id: this.id, keys: this.keys });
    this.#claiming = true;
  }

  /**
   * Gives the turn back: out of the slot, then its waiters are told. `lazily`: the slot may be
   * rewritten a moment later (see `FenceBeacon.deactivate`).
   */
  yieldTurn(options: { readonly lazily?: boolean } = {}): void {
    if (!this.#claiming) return;
    this.#claiming = false;
    this.#beacon.deactivate(this.id, options);
  }
}
