import { assertNode, assertNodeList, isWriteAccess } from './assert-nodes.js';
import { collectWaves } from './collect-waves.js';
import { LatestWaveIndex } from './latest-wave-index.js';
import { plainKeyFit } from './plain-key-fit.js';
import type { FirstFitOptions, Plan, PlanNode } from './types.js';

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
 * from a {@link LatestWaveIndex}. With plain `resourceKey`s this is the seed's rule exactly: the j-th call
 * on key K lands in the j-th open wave. Batches of plain keys none of which overlaps another
 * take the fast path {@link plainKeyFit} (same plan, no trie). Internal to the package.
 */
export function firstFit(nodes: readonly PlanNode[], options: FirstFitOptions): Plan {
  assertNodeList(nodes);
  const plain = plainKeyFit(nodes, options);
  if (plain !== undefined) return plain;
  const count = nodes.length;
  const index = new LatestWaveIndex();
  let keyIds = new Int32Array(4); // scratch: the key ids of the current call's `access`
  // Typed arrays sized once (a batch has at most one wave per call); the waves' call lists are
  // built at the end (see collectWaves).
  const waveOf = new Int32Array(count);
  const sizes = new Int32Array(count);
  const open = new Uint8Array(count);
  const openWaves = new Int32Array(count);
  const openUpTo = new Int32Array(count);
  let waveCount = 0;
  let openCount = 0;
  let fence = -1;
  // For ordering edges (with `waveOf`): the latest wave holding any call so far.
  let latestWave = -1;

  for (let i = 0; i < count; i++) {
    const node = nodes[i];
    assertNode(node, i);
    if (!node.parallelizable) {
      // A new wave at the end: after every wave, so after whatever its edges name.
      latestWave = waveCount;
      if (options.ordered) {
        // Nothing crosses this call: the waves before it accept no more calls.
        for (let o = openCount - 1; o >= 0 && open[openWaves[o]!] === 1; o--) {
          open[openWaves[o]!] = 0;
        }
        fence = waveCount;
      }
      waveOf[i] = waveCount;
      sizes[waveCount] = 1;
      openUpTo[waveCount++] = openCount;
      continue;
    }

    // Query every access first, record them after: a call never conflicts with itself.
    const { resourceKey, access } = node;
    let after = fence;
    const ownKey = resourceKey === undefined ? -1 : index.idOf(resourceKey);
    if (ownKey !== -1) after = Math.max(after, index.latest(ownKey, true));
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

    if (node.afterPrevious !== undefined) after = Math.max(after, latestWave);
    else if (node.after !== undefined) {
      for (const earlier of node.after) after = Math.max(after, waveOf[earlier]!);
    }
    const rank = after < 0 ? 0 : openUpTo[after]!;
    let position: number;
    if (rank < openCount) {
      position = openWaves[rank]!;
      sizes[position]!++;
    } else {
      position = waveCount++;
      sizes[position] = 1;
      open[position] = 1;
      openWaves[openCount++] = position;
      openUpTo[position] = openCount;
    }
    waveOf[i] = position;
    if (position > latestWave) latestWave = position;

    if (ownKey !== -1) index.record(ownKey, true, position);
    for (let a = 0; a < accessCount; a++) {
      index.record(keyIds[a]!, access![a]!.mode === 'write', position);
    }
  }

  const waves = collectWaves({ waveOf, sizes, open, waveCount });
  return { planner: options.planner, waves };
}
