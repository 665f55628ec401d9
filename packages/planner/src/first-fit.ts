import { assertNode, assertNodeList, isWriteAccess } from './assert-nodes.js';
import { LatestWaveIndex } from './latest-wave-index.js';
import { type PlainKeysPlaced, placePlainKeys } from './plain-key-fit.js';
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
    index.record(index.idOf(key), true, plain.latestWave[plain.keyIds[key]!]!);
  }
  const { waveOf } = placement;
  let keyIds = new Int32Array(4); // scratch: the key ids of the current call's `access`

  for (let i = plain.calls; i < count; i++) {
    const node = nodes[i];
    assertNode(node, i);
    if (!node.parallelizable) {
      placement.alone(i);
      continue;
    }

    // Query every access first, record them after: a call never conflicts with itself.
    const { resourceKey, access } = node;
    let after = -1;
    const ownKey = resourceKey === undefined ? -1 : index.idOf(resourceKey);
    if (ownKey !== -1) after = index.latest(ownKey, true);
    const accessCount = access === undefined ? 0 : access.length;
    if (accessCount > keyIds.length) keyIds = new Int32Array(accessCount);
    for (let a = 0; a < accessCount; a++) {
      const entry = access![a]!;
      const write = isWriteAccess(entry, i, a);
      const id = index.idOf(entry.key);
      keyIds[a] = id;
      const latest = index.latest(id, write);
      if (latest > after) after = latest;
    }

    if (node.afterPrevious !== undefined) after = Math.max(after, placement.latest);
    else if (node.after !== undefined) {
      for (const earlier of node.after) after = Math.max(after, waveOf[earlier]!);
    }
    const position = placement.join(i, after);

    if (ownKey !== -1) index.record(ownKey, true, position);
    for (let a = 0; a < accessCount; a++) {
      index.record(keyIds[a]!, access![a]!.mode === 'write', position);
    }
  }
}
