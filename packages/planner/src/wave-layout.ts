import { blockCost } from './block-cost.js';
import type { ConflictGraph } from './conflict-graph.js';
import { listSchedule } from './list-schedule.js';
import { type PlacementWindow, placementWindow } from './placement-window.js';

/**
 * An ordered list of waves of safe calls (positions in a {@link ConflictGraph}), with each
 * wave's cost kept up to date, that the duration-aware heuristics edit one call at a time.
 * It does not check the rules itself: callers place calls inside their
 * {@link placementWindow}. Internal to the package.
 */
export class WaveLayout {
  readonly graph: ConflictGraph;
  readonly slots: number;
  /** The waves in run order, each ascending. */
  readonly blocks: number[][] = [];
  /** The cost of each wave ({@link blockCost}). */
  readonly costs: number[] = [];
  /** The wave of each safe call, -1 while unplaced. */
  readonly waveOf: Int32Array;
  /** Durations of the wave being costed, reused so that trying a move allocates nothing. */
  private readonly scratch: number[] = [];

  constructor(graph: ConflictGraph, slots: number, blocks: readonly (readonly number[])[] = []) {
    this.graph = graph;
    this.slots = slots;
    this.waveOf = new Int32Array(graph.safe.length).fill(-1);
    for (const block of blocks) {
      const wave = this.blocks.length;
      this.blocks.push([...block]);
      this.costs.push(blockCost(block, graph.durations, slots));
      for (const position of block) this.waveOf[position] = wave;
    }
  }

  /** The summed cost of the waves. */
  total(): number {
    let sum = 0;
    for (const cost of this.costs) sum += cost;
    return sum;
  }

  /** Where `position` may go given the calls placed now. */
  window(position: number): PlacementWindow {
    return placementWindow(this.graph, position, this.waveOf, this.blocks.length);
  }

  /**
   * The cost wave `wave` would have with call `plus` added and call `minus` taken out (-1 for
   * neither); 0 when it would be empty.
   */
  costOf(wave: number, plus: number, minus: number): number {
    const { durations } = this.graph;
    const scratch = this.scratch;
    scratch.length = 0;
    let pending = plus;
    for (const position of this.blocks[wave]!) {
      if (pending !== -1 && pending < position) {
        scratch.push(durations[pending]!);
        pending = -1;
      }
      if (position !== minus) scratch.push(durations[position]!);
    }
    if (pending !== -1) scratch.push(durations[pending]!);
    return listSchedule(scratch, this.slots);
  }

  /** The cost wave `wave` would have with `position` added. */
  costWith(wave: number, position: number): number {
    return this.costOf(wave, position, -1);
  }

  /** The cost wave `wave` would have without `position` (0 when it would be empty). */
  costWithout(wave: number, position: number): number {
    return this.costOf(wave, -1, position);
  }

  /** Adds `position` to the existing wave `wave`. */
  add(wave: number, position: number): void {
    insertCall(this.blocks[wave]!, position);
    this.costs[wave] = this.costOf(wave, -1, -1);
    this.waveOf[position] = wave;
  }

  /** Inserts a new wave holding only `position` at index `at`, shifting later waves. */
  insertWave(at: number, position: number): void {
    this.blocks.splice(at, 0, [position]);
    this.costs.splice(at, 0, this.graph.durations[position]!);
    for (let other = 0; other < this.waveOf.length; other++) {
      if (this.waveOf[other]! >= at) this.waveOf[other]!++;
    }
    this.waveOf[position] = at;
  }

  /** Swaps the waves of two calls placed in different waves. */
  exchange(a: number, b: number): void {
    const waveA = this.waveOf[a]!;
    const waveB = this.waveOf[b]!;
    removeCall(this.blocks[waveA]!, a);
    insertCall(this.blocks[waveA]!, b);
    removeCall(this.blocks[waveB]!, b);
    insertCall(this.blocks[waveB]!, a);
    this.costs[waveA] = this.costOf(waveA, -1, -1);
    this.costs[waveB] = this.costOf(waveB, -1, -1);
    this.waveOf[a] = waveB;
    this.waveOf[b] = waveA;
  }

  /** Takes `position` out of its wave; a wave left empty is removed. Returns whether it was. */
  remove(position: number): boolean {
    const wave = this.waveOf[position]!;
    this.waveOf[position] = -1;
    const block = this.blocks[wave]!;
    removeCall(block, position);
    if (block.length > 0) {
      this.costs[wave] = this.costOf(wave, -1, -1);
      return false;
    }
    this.blocks.splice(wave, 1);
    this.costs.splice(wave, 1);
    for (let other = 0; other < this.waveOf.length; other++) {
      if (this.waveOf[other]! > wave) this.waveOf[other]!--;
    }
    return true;
  }
}

/** Inserts `position` into an ascending block, in place. */
function insertCall(block: number[], position: number): void {
  let at = block.length;
  while (at > 0 && block[at - 1]! > position) at--;
  block.splice(at, 0, position);
}

/** Removes `position` from a block, in place. */
function removeCall(block: number[], position: number): void {
  block.splice(block.indexOf(position), 1);
}
