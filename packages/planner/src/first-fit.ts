import { AccessIndex, AccessRecord, type KeyNode } from './access-index.js';
import { assertNode, assertNodeList, isWriteAccess } from './assert-nodes.js';
import { plainKeyFit } from './plain-key-fit.js';
import type { FirstFitOptions, Plan, PlanNode } from './types.js';

/** A wave while planning: `open` is switched off when a fence closes it. */
interface WaveInProgress {
  readonly calls: number[];
  open: boolean;
}

/**
 * The first-fit packing behind {@link greedyPlanner} and {@link orderedPlanner}. Walks the calls
 * once, in model order:
 * - not concurrency-safe → a new wave of its own, born closed (with `ordered`, it also becomes
 *   a fence: later calls go to later waves);
 * - safe → the earliest open wave positioned after every wave that holds an earlier
 *   conflicting call or a call it follows by an edge (`after`, `afterPrevious`), and after the
 *   fence; if there is none, a new open wave.
 *
 * No wave is scanned: waves born open are listed in `openWaves` in position order and new
 * waves are appended, so "the earliest open wave after position p" is
 * `openWaves[openUpTo[p]]`, where `openUpTo[p]` counts the waves born open at positions up to
 * p, fixed when wave p is created (a fence only raises p). The latest conflicting wave comes
 * from an
 * {@link AccessIndex}. With plain `resourceKey`s this is the seed's rule exactly: the j-th call
 * on key K lands in the j-th open wave. Batches of plain keys none of which overlaps another
 * take the fast path {@link plainKeyFit} (same plan, no trie). Internal to the package.
 */
export function firstFit(nodes: readonly PlanNode[], options: FirstFitOptions): Plan {
  assertNodeList(nodes);
  const plain = plainKeyFit(nodes, options);
  if (plain !== undefined) return plain;
  const index = new AccessIndex();
  const latest = new AccessRecord();
  const keyNodes: KeyNode[] = []; // scratch: the trie nodes of the current call's `access`
  const waves: WaveInProgress[] = [];
  const openWaves: number[] = [];
  const openUpTo: number[] = [];
  let fence = -1;
  // For ordering edges: each call's wave, and the latest wave holding any call so far.
  const waveOf = new Int32Array(nodes.length);
  let latestWave = -1;

  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    assertNode(node, i);
    if (!node.parallelizable) {
      // A new wave at the end: after every wave, so after whatever its edges name.
      waveOf[i] = waves.length;
      latestWave = waves.length;
      if (options.ordered) {
        // Nothing crosses this call: the waves before it accept no more calls.
        for (let o = openWaves.length - 1; o >= 0 && waves[openWaves[o]!]!.open; o--) {
          waves[openWaves[o]!]!.open = false;
        }
        fence = waves.length;
      }
      waves.push({ calls: [i], open: false });
      openUpTo.push(openWaves.length);
      continue;
    }

    // Query every access first, record them after: a call never conflicts with itself.
    latest.clear();
    const { resourceKey, access } = node;
    const ownKey = resourceKey === undefined ? undefined : index.keyNode(resourceKey);
    if (ownKey !== undefined) index.latest(ownKey, true, latest);
    const accessCount = access === undefined ? 0 : access.length;
    for (let a = 0; a < accessCount; a++) {
      const entry = access![a]!;
      const write = isWriteAccess(entry, i, a);
      const keyNode = index.keyNode(entry.key);
      keyNodes[a] = keyNode;
      index.latest(keyNode, write, latest);
    }

    let after = Math.max(latest.value, fence);
    if (node.afterPrevious !== undefined) after = Math.max(after, latestWave);
    else if (node.after !== undefined) {
      for (const earlier of node.after) after = Math.max(after, waveOf[earlier]!);
    }
    const rank = after < 0 ? 0 : openUpTo[after]!;
    let position: number;
    if (rank < openWaves.length) {
      position = openWaves[rank]!;
      waves[position]!.calls.push(i);
    } else {
      position = waves.length;
      waves.push({ calls: [i], open: true });
      openWaves.push(position);
      openUpTo.push(openWaves.length);
    }

    waveOf[i] = position;
    if (position > latestWave) latestWave = position;

    // Positions in the call's accessesOf() list: the resourceKey first, then `access`.
    const first = ownKey === undefined ? 0 : 1;
    if (ownKey !== undefined) index.record(ownKey, true, position, i, 0);
    for (let a = 0; a < accessCount; a++) {
      index.record(keyNodes[a]!, access![a]!.mode === 'write', position, i, first + a);
    }
  }

  return { planner: options.planner, waves };
}
