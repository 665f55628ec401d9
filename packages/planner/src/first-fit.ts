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
    if (id !== PREFIX) index.record(index.codeOf(key, true), plain.latestWave[id]!);
  }
  const { waveOf } = placement;
  // Scratch: the current call's accesses, each its code (see `LatestWaveIndex.codeOf`).
  let accesses = new Int32Array(8);

  for (let i = plain.calls; i < count; i++) {
    // Each field is read once, into a local, as in the fast path (see `placePlainKeys`): the
    // common node passes in these comparisons, any other takes every check of `assertNode`.
    const node = nodes[i];
    if (typeof node !== 'object' || node === null) assertNode(node, i);
    const { index: at, parallelizable, resourceKey, access, after: earlier, afterPrevious } = node;
    if (
      at !== i ||
      earlier !== undefined ||
      afterPrevious !== undefined ||
      (parallelizable !== false &&
        (parallelizable !== true ||
          (resourceKey !== undefined && typeof resourceKey !== 'string') ||
          (access !== undefined && !Array.isArray(access))))
    ) {
      assertNode(node, i);
    }
    if (!parallelizable) {
      placement.alone(i);
      continue;
    }

    // Read every access (a `resourceKey` is a write) and query it as it is read, then record
    // them all once the call is placed: a call never conflicts with itself. A query only reads
    // the index, so it may come before a later access of the same call is read (or refused).
    const listed = access === undefined ? 0 : access.length;
    if (listed + 1 > accesses.length) accesses = new Int32Array(listed + 1);
    let held = 0;
    let after = -1;
    if (resourceKey !== undefined) {
      const code = index.idOf(resourceKey) * 2 + 1;
      accesses[held++] = code;
      after = index.latest(code);
    }
    for (let a = 0; a < listed; a++) {
      const entry = access![a]!;
      // The common entry in two comparisons; any other takes every check of `isWriteAccess`,
      // which throws (the same error as reading it field by field would).
      const mode = typeof entry === 'object' && entry !== null ? entry.mode : undefined;
      const key = mode === 'write' || mode === 'read' ? entry.key : undefined;
      if (typeof key !== 'string') isWriteAccess(entry, i, a);
      const code = index.idOf(key as string) * 2 + (mode === 'write' ? 1 : 0);
      accesses[held++] = code;
      after = later(after, index.latest(code));
    }

    if (afterPrevious !== undefined) after = Math.max(after, placement.latest);
    else if (earlier !== undefined) {
      for (const call of earlier) after = Math.max(after, waveOf[call]!);
    }
    const position = placement.join(i, after);
    for (let a = 0; a < held; a++) index.record(accesses[a]!, position);
  }
}
