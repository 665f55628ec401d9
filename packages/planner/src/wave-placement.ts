import { collectWaves } from './collect-waves.js';
import type { Wave } from './types.js';

/** How {@link WavePlacement} places calls. */
export interface WavePlacementOptions {
  /** How many calls the batch holds (a batch has at most one wave per call). */
  readonly count: number;
  /** Keep rule 5: a call that is not concurrency-safe is a fence no later call crosses. */
  readonly ordered: boolean;
}

/**
 * The waves of a first-fit plan while it is being made, for {@link firstFit} and
 * {@link plainKeyFit}: which wave each call is in, which waves are open, and where the earliest
 * open wave after a given wave is — the part of first-fit that does not depend on how calls
 * conflict.
 *
 * No wave is scanned: waves born open are listed in `openWaves` in position order and new
 * waves are appended, so "the earliest open wave after position p" is
 * `openWaves[openUpTo[p]]`, where `openUpTo[p]` counts the waves born open at positions up to
 * p, fixed when wave p is created (a fence only raises p). Everything lives in typed arrays
 * sized once; the waves' call lists are built at the end ({@link collectWaves}). Internal to the
 * package.
 *
 * @example
 * const placement = new WavePlacement({ count: 3, ordered: false });
 * placement.join(0, -1); // 0: a new open wave
 * placement.alone(1);    // wave 1, closed
 * placement.join(2, -1); // 0: the earliest open wave
 * placement.waves();     // [{ calls: [0, 2], open: true }, { calls: [1], open: false }]
 */
export class WavePlacement {
  /** The wave of each call placed so far, in model order. */
  readonly waveOf: Int32Array;
  private readonly sizes: Int32Array;
  private readonly open: Uint8Array;
  private readonly openWaves: Int32Array;
  private readonly openUpTo: Int32Array;
  private readonly ordered: boolean;
  private waveCount = 0;
  private openCount = 0;
  /** With `ordered`, the wave of the latest call that is not concurrency-safe (-1: none). */
  private fence = -1;

  constructor(options: WavePlacementOptions) {
    const { count } = options;
    this.ordered = options.ordered;
    this.waveOf = new Int32Array(count);
    this.sizes = new Int32Array(count);
    this.open = new Uint8Array(count);
    this.openWaves = new Int32Array(count);
    this.openUpTo = new Int32Array(count);
  }

  /**
   * The latest wave holding any call so far (-1: none): what `afterPrevious` waits for. Every
   * wave is made for a call, so it is the last wave made.
   */
  get latest(): number {
    return this.waveCount - 1;
  }

  /**
   * Places a call that is not concurrency-safe: a new wave of its own at the end, born closed
   * (after every wave, so after whatever it must follow). With `ordered`, it also becomes a
   * fence: the waves before it accept no more calls.
   */
  alone(call: number): void {
    const position = this.waveCount++;
    if (this.ordered) this.closeOpenWaves(position);
    this.waveOf[call] = position;
    this.sizes[position] = 1;
    this.openUpTo[position] = this.openCount;
  }

  /** With `ordered`: the waves open so far accept no more calls; the fence is at `position`. */
  private closeOpenWaves(position: number): void {
    const { open, openWaves } = this;
    for (let o = this.openCount - 1; o >= 0 && open[openWaves[o]!] === 1; o--) {
      open[openWaves[o]!] = 0;
    }
    this.fence = position;
  }

  /**
   * Places a concurrency-safe call in the earliest open wave positioned after wave `after`
   * (-1: none; with `ordered`, after the fence too), or in a new open wave when there is none.
   * Returns its wave.
   */
  join(call: number, after: number): number {
    const last = Math.max(after, this.fence);
    const rank = last < 0 ? 0 : this.openUpTo[last]!;
    let position: number;
    if (rank < this.openCount) {
      position = this.openWaves[rank]!;
      this.sizes[position]!++;
    } else {
      position = this.waveCount++;
      this.sizes[position] = 1;
      this.open[position] = 1;
      this.openWaves[this.openCount++] = position;
      this.openUpTo[position] = this.openCount;
    }
    this.waveOf[call] = position;
    return position;
  }

  /** The waves, once every call is placed. */
  waves(): Wave[] {
    return collectWaves({
      waveOf: this.waveOf,
      sizes: this.sizes,
      open: this.open,
      waveCount: this.waveCount,
    });
  }
}
