import { assertNode } from './assert-nodes.js';
import { collectWaves } from './collect-waves.js';
import { hasEdges } from './edges-of.js';
import type { FirstFitOptions, Plan, PlanNode } from './types.js';

/**
 * The fast path of {@link firstFit} for the seed model: every concurrency-safe call declares at
 * most a plain `resourceKey`, and no key overlaps another distinct key (none is a `/`-ancestor
 * of another, none ends with `/`). Two calls then conflict exactly when their keys are equal,
 * so a key needs one number — the latest wave holding it — instead of the key trie.
 *
 * Whether the fast path applies is found while planning: each distinct key is checked once when
 * first seen (its `/`-prefixes against the keys seen, and against the prefixes of the keys
 * seen). On the first safe call with an `access` list, an ordering edge or a key that overlaps
 * another, it gives up and returns `undefined`, and the caller plans with the general path.
 * Same plan as {@link firstFit}'s general path; internal to the package.
 */
export function plainKeyFit(
  nodes: readonly PlanNode[],
  options: FirstFitOptions,
): Plan | undefined {
  const count = nodes.length;
  const keyIds: Record<string, number | undefined> = Object.create(null);
  const prefixes = new Set<string>();
  let latestWave = new Int32Array(256);
  let keyCount = 0;
  // Typed arrays sized once (a batch has at most one wave per call); the waves' call lists are
  // built at the end with their exact sizes.
  const waveOf = new Int32Array(count);
  const sizes = new Int32Array(count);
  const open = new Uint8Array(count);
  const openWaves = new Int32Array(count);
  const openUpTo = new Int32Array(count);
  let waveCount = 0;
  let openCount = 0;
  let fence = -1;

  for (let i = 0; i < count; i++) {
    const node = nodes[i];
    assertNode(node, i);
    if (!node.parallelizable) {
      if (options.ordered) {
        for (let o = openCount - 1; o >= 0 && open[openWaves[o]!] === 1; o--)
          open[openWaves[o]!] = 0;
        fence = waveCount;
      }
      waveOf[i] = waveCount;
      sizes[waveCount] = 1;
      openUpTo[waveCount++] = openCount;
      continue;
    }
    if (node.access !== undefined || hasEdges(node)) return undefined;
    const key = node.resourceKey;
    let id = -1;
    let after = fence;
    if (key !== undefined) {
      const known = keyIds[key];
      if (known === undefined) {
        if (!isolated(key, keyIds, prefixes)) return undefined;
        id = keyCount++;
        keyIds[key] = id;
        if (id === latestWave.length) {
          const grown = new Int32Array(latestWave.length * 2);
          grown.set(latestWave);
          latestWave = grown;
        }
        latestWave[id] = -1;
      } else {
        id = known;
        if (latestWave[id]! > after) after = latestWave[id]!;
      }
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
    if (id !== -1) latestWave[id] = position;
  }

  const waves = collectWaves({ waveOf, sizes, open, waveCount });
  return { planner: options.planner, waves };
}

/**
 * Whether a key first seen overlaps no key seen before (see {@link keysOverlap}): it does not
 * end with `/`, no `/`-prefix of it is a key seen, and it is no `/`-prefix of a key seen.
 * Records its prefixes for the keys to come.
 */
function isolated(
  key: string,
  keyIds: Record<string, number | undefined>,
  prefixes: Set<string>,
): boolean {
  if (key.endsWith('/') || prefixes.has(key)) return false;
  for (let slash = key.indexOf('/'); slash !== -1; slash = key.indexOf('/', slash + 1)) {
    const prefix = key.slice(0, slash);
    if (keyIds[prefix] !== undefined) return false;
    prefixes.add(prefix);
  }
  return true;
}
