import { AccessIndex, AccessRecord, type KeyNode } from './access-index.js';
import { assertNodes } from './assert-nodes.js';
import type { Plan, PlanNode, Wave } from './types.js';

/** Options of {@link firstFit}. */
export interface FirstFitOptions {
  /** Name written into the plan. */
  readonly planner: string;
  /** Keep rule 5: no call crosses a call that is not concurrency-safe. */
  readonly ordered: boolean;
}

/**
 * The first-fit packing behind {@link greedyPlanner} and {@link orderedPlanner}. Walks the calls
 * once, in model order:
 * - not concurrency-safe → a new wave of its own, born closed (with `ordered`, it also becomes
 *   a fence: later calls go to later waves);
 * - safe → the earliest open wave positioned after every wave that holds an earlier
 *   conflicting call (and after the fence); if there is none, a new open wave.
 *
 * No wave is scanned: open waves never close and new waves are appended, so "the earliest open
 * wave after position p" is `openWaves[openUpTo[p]]`, where `openUpTo[p]` counts the open waves
 * at positions up to p, fixed when wave p is created. The latest conflicting wave comes from an
 * {@link AccessIndex}. With plain `resourceKey`s this is the seed's rule exactly: the j-th call
 * on key K lands in the j-th open wave. Internal to the package.
 */
export function firstFit(nodes: readonly PlanNode[], options: FirstFitOptions): Plan {
  assertNodes(nodes);
  const index = new AccessIndex();
  const latest = new AccessRecord();
  const keyNodes: KeyNode[] = [];
  const waveCalls: number[][] = [];
  const bornOpen: boolean[] = [];
  const openWaves: number[] = [];
  const openUpTo: number[] = [];
  let fence = -1;

  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (!node.parallelizable) {
      const position = waveCalls.length;
      waveCalls.push([i]);
      bornOpen.push(false);
      openUpTo.push(openWaves.length);
      if (options.ordered) fence = position;
      continue;
    }

    keyNodes.length = 0;
    latest.clear();
    const { resourceKey, access } = node;
    if (resourceKey !== undefined) {
      const keyNode = index.keyNode(resourceKey);
      keyNodes.push(keyNode);
      index.latest(keyNode, true, latest);
    }
    if (access !== undefined) {
      for (const entry of access) {
        const keyNode = index.keyNode(entry.key);
        keyNodes.push(keyNode);
        index.latest(keyNode, entry.mode === 'write', latest);
      }
    }

    const after = Math.max(latest.value, fence);
    const rank = after < 0 ? 0 : openUpTo[after]!;
    let position: number;
    if (rank < openWaves.length) {
      position = openWaves[rank]!;
      waveCalls[position]!.push(i);
    } else {
      position = waveCalls.length;
      waveCalls.push([i]);
      bornOpen.push(true);
      openWaves.push(position);
      openUpTo.push(openWaves.length);
    }

    let slot = 0;
    if (resourceKey !== undefined) {
      index.record(keyNodes[slot]!, true, position, i, slot);
      slot++;
    }
    if (access !== undefined) {
      for (const entry of access) {
        index.record(keyNodes[slot]!, entry.mode === 'write', position, i, slot);
        slot++;
      }
    }
  }

  const waves: Wave[] = waveCalls.map((calls, position) => ({
    calls,
    open: bornOpen[position]! && position > fence,
  }));
  return { planner: options.planner, waves };
}
