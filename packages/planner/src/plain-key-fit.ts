import { assertNode } from './assert-nodes.js';
import { hasEdges } from './edges-of.js';
import type { FirstFitOptions, Plan, PlanNode } from './types.js';
import { WavePlacement } from './wave-placement.js';

/**
 * The fast path of {@link firstFit} for the seed model: every concurrency-safe call declares at
 * most a plain `resourceKey`, and no key overlaps another distinct key (none is a `/`-ancestor
 * of another, none ends with `/`). Two calls then conflict exactly when their keys are equal,
 * so a key needs one number — the latest wave holding it — instead of the key trie.
 *
 * Whether the fast path applies is found while planning: each distinct key is checked once when
 * first seen (its `/`-prefixes against the keys seen, and against the prefixes of the keys
 * seen). On the first safe call with an `access` list, an ordering edge or a key that overlaps
 * another, it gives up and returns `undefined`. Same plan as {@link firstFit}'s general path.
 * This plans a whole batch with the fast path alone; {@link firstFit} calls
 * {@link placePlainKeys} instead, and carries on from where it stops. Internal to the package.
 */
export function plainKeyFit(
  nodes: readonly PlanNode[],
  options: FirstFitOptions,
): Plan | undefined {
  const placement = new WavePlacement({ count: nodes.length, ordered: options.ordered });
  const placed = placePlainKeys(nodes, placement);
  if (placed.calls < nodes.length) return undefined;
  return { planner: options.planner, waves: placement.waves() };
}

/** How far {@link placePlainKeys} got, and what it knows of the keys of the calls it placed. */
export interface PlainKeysPlaced {
  /** How many calls it placed: all of them, or those before the first it could not place. */
  readonly calls: number;
  /** Each key seen, with its number; {@link PREFIX} for a `/`-prefix of a key seen. */
  readonly keyIds: Readonly<Record<string, number | undefined>>;
  /** The latest wave holding each key, by number. */
  readonly latestWave: Int32Array;
}

/**
 * Places the calls of `nodes` in model order, as {@link plainKeyFit} does, up to the first
 * call the fast path cannot place; {@link firstFit} goes on from there with the general path,
 * so no call is placed twice and no array is allocated twice.
 */
export function placePlainKeys(
  nodes: readonly PlanNode[],
  placement: WavePlacement,
): PlainKeysPlaced {
  const count = nodes.length;
  const keyIds: Record<string, number | undefined> = Object.create(null);
  const seen: SeenKeys = { keyIds, checkedPath: undefined };
  let latestWave = new Int32Array(256);
  let keyCount = 0;

  let i = 0;
  for (; i < count; i++) {
    const node = nodes[i];
    // Each field is read once, into a local, for both the checks and the fast path's own tests
    // (`assertNode` then `hasEdges` read most of them twice, each read checking the node's
    // shape again: a few % more CPU per batch). The common node passes in these comparisons;
    // any other takes every check of `assertNode` (the same errors, in the same order), then
    // the rules for edges and access lists.
    if (typeof node !== 'object' || node === null) assertNode(node, i);
    const { index, parallelizable, resourceKey: key, access, after, afterPrevious } = node;
    if (
      parallelizable === false &&
      index === i &&
      after === undefined &&
      afterPrevious === undefined
    ) {
      placement.alone(i);
      continue;
    }
    if (
      parallelizable !== true ||
      index !== i ||
      access !== undefined ||
      after !== undefined ||
      afterPrevious !== undefined ||
      (key !== undefined && typeof key !== 'string')
    ) {
      assertNode(node, i);
      if (!parallelizable) {
        placement.alone(i);
        continue;
      }
      if (access !== undefined || hasEdges(node)) break;
    }
    let id = -1;
    let latest = -1;
    if (key !== undefined) {
      const known = keyIds[key];
      if (known === PREFIX) break; // a `/`-prefix of a key seen: the two overlap
      if (known === undefined) {
        if (!isolated(key, seen)) break;
        id = keyCount++;
        keyIds[key] = id;
        if (id === latestWave.length) {
          const grown = new Int32Array(latestWave.length * 2);
          grown.set(latestWave);
          latestWave = grown;
        }
      } else {
        id = known;
        latest = latestWave[id]!;
      }
    }
    // One call site: the compiler inlines `join` here, not at three.
    const position = placement.join(i, latest);
    if (id !== -1) latestWave[id] = position;
  }
  return { calls: i, keyIds, latestWave };
}

/**
 * The number {@link placePlainKeys} gives a `/`-prefix of a key seen that is no key seen (else
 * the fast path gave up): the keys and the prefixes share one table, so that the lookup of a
 * key also tells whether it is a prefix.
 */
export const PREFIX = -1;

const SLASH = 47; // '/'

/** What {@link isolated} knows of the keys seen so far. */
interface SeenKeys {
  /** Each key seen, with its number, and each `/`-prefix of one, {@link PREFIX}. */
  readonly keyIds: Record<string, number | undefined>;
  /** The path before the last `/` of the latest key whose prefixes were checked (none yet: undefined). */
  checkedPath: string | undefined;
}

/**
 * Whether a key first seen overlaps no key seen before (see {@link keysOverlap}): it does not
 * end with `/`, and no `/`-prefix of it is a key seen (whether it is a `/`-prefix of a key seen,
 * its lookup told: {@link PREFIX}). Records its prefixes for the keys to come.
 */
function isolated(key: string, seen: SeenKeys): boolean {
  // Back from the end to the last `/` by character codes: `lastIndexOf` costs twice as much.
  let last = key.length - 1;
  if (last !== -1 && key.charCodeAt(last) === SLASH) return false;
  while (last !== -1 && key.charCodeAt(last) !== SLASH) last--;
  if (last === -1) return true;
  // Keys of one directory have the same prefixes: checked for the first of them, they need no
  // second check (a key equal to one of them would have been refused, as a prefix of a key seen).
  const path = seen.checkedPath;
  if (path !== undefined && last === path.length && key.startsWith(path)) return true;
  for (let slash = key.indexOf('/'); slash !== -1; slash = key.indexOf('/', slash + 1)) {
    const prefix = key.slice(0, slash);
    const known = seen.keyIds[prefix];
    if (known === undefined) seen.keyIds[prefix] = PREFIX;
    else if (known !== PREFIX) return false;
  }
  seen.checkedPath = key.slice(0, last);
  return true;
}
