import { blockCost } from './block-cost.js';
import type { ConflictGraph } from './conflict-graph.js';
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

  /** The cost wave `wave` would have with `position` added. */
  costWith(wave: number, position: number): number {
    return blockCost(withCall(this.blocks[wave]!, position), this.graph.durations, this.slots);
  }

  /** The cost wave `wave` would have without `position` (0 when it would be empty). */
  costWithout(wave: number, position: number): number {
    const rest = this.blocks[wave]!.filter((other) => other !== position);
    return blockCost(rest, this.graph.durations, this.slots);
  }

  /** Adds `position` to the existing wave `wave`. */
  add(wave: number, position: number): void {
    this.blocks[wave] = withCall(this.blocks[wave]!, position);
    this.costs[wave] = blockCost(this.blocks[wave]!, this.graph.durations, this.slots);
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
    this.blocks[waveA] = withCall(
      this.blocks[waveA]!.filter((other) => other !== a),
      b,
    );
    this.blocks[waveB] = withCall(
      this.blocks[waveB]!.filter((other) => other !== b),
      a,
    );
    this.costs[waveA] = blockCost(this.blocks[waveA]!, this.graph.durations, this.slots);
    this.costs[waveB] = blockCost(this.blocks[waveB]!, this.graph.durations, this.slots);
    this.waveOf[a] = waveB;
    this.waveOf[b] = waveA;
  }

  /** Takes `position` out of its wave; a wave left empty is removed. Returns whether it was. */
  remove(position: number): boolean {
    const wave = this.waveOf[position]!;
    this.waveOf[position] = -1;
    const rest = this.blocks[wave]!.filter((other) => other !== position);
    if (rest.length > 0) {
      this.blocks[wave] = rest;
      this.costs[wave] = blockCost(rest, this.graph.durations, this.slots);
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

function withCall(block: readonly number[], position: number): number[] {
  let at = block.length;
  while (at > 0 && block[at - 1]! > position) at--;
  return [...block.slice(0, at), position, ...block.slice(at)];
}
