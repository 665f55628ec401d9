import { assertNode, assertNodeList, isWriteAccess } from './assert-nodes.js';
import { later } from './later.js';
import { LatestWaveIndex } from './latest-wave-index.js';
import { type PlainKeysPlaced, PREFIX, placePlainKeys } from './plain-key-fit.js';
import type { FirstFitOptions, Plan, PlanNode } from './types.js';
import { WavePlacement } from './wave-placement.js';

/**
 * The first-fit packing behind {@link greedyPlanner} and {@link orderedPlanner}. Walks the calls
 * once, in model order:
 * - not concurrency-safe → a new wave of its own, born closed (with `ordered`, it also becomes
 *   a fence: later calls go to later waves);
 * - safe → the earliest open wave positioned after every wave that holds an earlier
 *   conflicting call or a call it follows by an edge (`after`, `afterPrevious`), and after the
 *   fence; if there is none, a new open wave.
 *
 * No wave is scanned (see {@link WavePlacement}); the latest conflicting wave comes from a
 * {@link LatestWaveIndex}. With plain `resourceKey`s this is the seed's rule exactly: the j-th
 * call on key K lands in the j-th open wave. While every call declares at most a plain key that
 * overlaps no other, the fast path {@link placePlainKeys} places them (same plan, no trie); from
 * the first call it cannot place, the general path below goes on, starting from the keys the
 * fast path saw. Internal to the package.
 */
export function firstFit(nodes: readonly PlanNode[], options: FirstFitOptions): Plan {
  assertNodeList(nodes);
  const placement = new WavePlacement({ count: nodes.length, ordered: options.ordered });
  const plain = placePlainKeys(nodes, placement);
  if (plain.calls < nodes.length) placeAccesses(nodes, placement, plain);
  return { planner: options.planner, waves: placement.waves() };
}

/** The general path: places the calls from `plain.calls` on, by their accesses and edges. */
function placeAccesses(
  nodes: readonly PlanNode[],
  placement: WavePlacement,
  plain: PlainKeysPlaced,
): void {
  const count = nodes.length;
  const index = new LatestWaveIndex();
  // The fast path's keys are writes that overlap no other key: the latest wave holding each is
  // all the index needs of them (it keeps only the latest wave per key and mode).
  for (const key in plain.keyIds) {
    const id = plain.keyIds[key]!;
    if (id !== PREFIX) index.record(index.idOf(key), true, plain.latestWave[id]!);
  }
  const { waveOf } = placement;
  // Scratch: the current call's accesses, each its key's number × 2, + 1 for a write.
  let accesses = new Int32Array(8);

  for (let i = plain.calls; i < count; i++) {
    const node = nodes[i];
    assertNode(node, i);
    if (!node.parallelizable) {
      placement.alone(i);
      continue;
    }

    // Read every access first (a `resourceKey` is a write), then query them all, then record
    // them: a call never conflicts with itself.
    const { resourceKey, access } = node;
    const listed = access === undefined ? 0 : access.length;
    if (listed + 1 > accesses.length) accesses = new Int32Array(listed + 1);
    let held = 0;
    if (resourceKey !== undefined) accesses[held++] = index.idOf(resourceKey) * 2 + 1;
    for (let a = 0; a < listed; a++) {
      const entry = access![a]!;
      const write = isWriteAccess(entry, i, a);
      accesses[held++] = index.idOf(entry.key) * 2 + (write ? 1 : 0);
    }
    let after = -1;
    for (let a = 0; a < held; a++) {
      after = later(after, index.latest(accesses[a]! >> 1, (accesses[a]! & 1) === 1));
    }

    if (node.afterPrevious !== undefined) after = Math.max(after, placement.latest);
    else if (node.after !== undefined) {
      for (const earlier of node.after) after = Math.max(after, waveOf[earlier]!);
    }
    const position = placement.join(i, after);
    for (let a = 0; a < held; a++) {
      index.record(accesses[a]! >> 1, (accesses[a]! & 1) === 1, position);
    }
  }
}
