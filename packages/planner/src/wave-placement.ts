import { collectWaves } from './collect-waves.js';
import type { Wave } from './types.js';

/** How {@link WavePlacement} places calls. */
export interface WavePlacementOptions {
  /** How many calls the batch holds (a batch has at most one wave per call). */
  readonly count: number;
  /** Keep rule 5: a call that is not concurrency-safe is a fence no later call crosses. */
  readonly ordered: boolean;
}

/** Room for waves a placement starts with (it doubles as waves are made). */
const FIRST_WAVES = 1024;

/** `larger`, holding what `values` holds. */
function grown<T extends Int32Array | Uint8Array>(values: T, larger: T): T {
  larger.set(values);
  return larger;
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
 * p, fixed when wave p is created (a fence only raises p). Everything lives in typed arrays;
 * the waves' call lists are built at the end ({@link collectWaves}). The call's wave is sized
 * once; what is kept per wave starts small and doubles as waves are made: a batch has at most
 * one wave per call but most have far fewer (the planner bench's seed batch: about 10 000 waves
 * for 100 000 calls), and four typed arrays sized for a wave per call were 1.3 MB of fresh
 * zeroed memory per plan of that batch; sized by the waves, planning it took 3.56, 3.76 and
 * 3.30 times the bench's floor where it took 3.75, 3.82 and 3.73 (both builds side by side in
 * one process, three runs). Internal to the package.
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
  private sizes: Int32Array;
  private open: Uint8Array;
  private openWaves: Int32Array;
  private openUpTo: Int32Array;
  private readonly ordered: boolean;
  private waveCount = 0;
  private openCount = 0;
  /** With `ordered`, the wave of the latest call that is not concurrency-safe (-1: none). */
  private fence = -1;

  constructor(options: WavePlacementOptions) {
    const { count } = options;
    this.ordered = options.ordered;
    this.waveOf = new Int32Array(count);
    const waves = Math.min(count, FIRST_WAVES);
    this.sizes = new Int32Array(waves);
    this.open = new Uint8Array(waves);
    this.openWaves = new Int32Array(waves);
    this.openUpTo = new Int32Array(waves);
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
    if (position === this.sizes.length) this.grow();
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
      if (position === this.sizes.length) this.grow();
      this.sizes[position] = 1;
      this.open[position] = 1;
      this.openWaves[this.openCount++] = position;
      this.openUpTo[position] = this.openCount;
    }
    this.waveOf[call] = position;
    return position;
  }

  /** Room for twice as many waves (never more than one per call). */
  private grow(): void {
    const waves = Math.min(this.sizes.length * 2, this.waveOf.length);
    this.sizes = grown(this.sizes, new Int32Array(waves));
    this.open = grown(this.open, new Uint8Array(waves));
    this.openWaves = grown(this.openWaves, new Int32Array(waves));
    this.openUpTo = grown(this.openUpTo, new Int32Array(waves));
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
