import { accessesOf, conflicts, type Plan, type PlanNode } from '@toolwaves/planner';

/**
 * Per call, the calls it conflicts with ({@link conflicts}) that the plan ran in an earlier wave,
 * ascending: what it waited for (instrumentation) and depends on (the failure policy).
 *
 * The plan keeps the rules (verified, or one call a wave in model order), so an earlier call that
 * a call follows by an edge ran in an earlier wave, and a later one in a later wave. The calls
 * are found wave by wave, against what the earlier waves hold, instead of by comparing all
 * pairs (which took seconds for a batch of 10 000): every earlier call for a call that is not
 * concurrency-safe; every earlier call before it for one that follows all earlier calls
 * (`afterPrevious`); else the earlier calls that are not concurrency-safe, those its `after` list
 * names, and those whose keys overlap its own with a write on either side (a trie of keys). The
 * work is the size of the answer, plus the depth of the keys.
 *
 * @example
 * ```ts
 * earlierWaveConflicts(nodes, plan)[3]; // [0, 2]: calls 0 and 2 ran in earlier waves, and conflict with 3
 * ```
 */
export function earlierWaveConflicts(
  nodes: readonly PlanNode[],
  plan: Plan,
): (readonly number[])[] {
  const found = new Array<readonly number[]>(nodes.length);
  /** Every call of the waves so far, and those of them that are not concurrency-safe. */
  const earlier: number[] = [];
  const unsafe: number[] = [];
  const ranEarlier = new Uint8Array(nodes.length);
  const keys = new KeyIndex();
  for (const wave of plan.waves) {
    for (const index of wave.calls) found[index] = conflictsBefore(nodes[index]!, earlier);
    for (const index of wave.calls) {
      const node = nodes[index]!;
      earlier.push(index);
      ranEarlier[index] = 1;
      if (!node.parallelizable) unsafe.push(index);
      for (const access of accessesOf(node)) keys.add(access.key, access.mode === 'write', index);
    }
  }
  return found;

  function conflictsBefore(node: PlanNode, before: readonly number[]): readonly number[] {
    if (!node.parallelizable) return ascending([...before]);
    if (node.afterPrevious !== undefined) {
      return ascending(before.filter((k) => k < node.index || conflicts(nodes[k]!, node)));
    }
    const into = new Set<number>(unsafe);
    for (const k of node.after ?? []) if (ranEarlier[k] === 1) into.add(k);
    for (const access of accessesOf(node))
      keys.overlapping(access.key, access.mode === 'write', into);
    return ascending([...into]);
  }
}

const ascending = (calls: number[]): number[] => calls.sort((a, b) => a - b);

/** One key of the {@link KeyIndex}: the calls that read or write exactly it, and its children. */
interface KeyEntry {
  readonly parent: KeyEntry | undefined;
  children: KeyEntry[] | undefined;
  readonly readers: number[];
  readonly writers: number[];
}

/**
 * The keys the earlier waves' calls access, as a trie of their `/`-separated segments (a trailing
 * `/` dropped): keys overlap exactly when one is the other or its ancestor (`keysOverlap`).
 */
class KeyIndex {
  readonly #entries = new Map<string, KeyEntry>();
  readonly #root: KeyEntry = { parent: undefined, children: undefined, readers: [], writers: [] };

  /** Call `index` reads or writes `key`. */
  add(key: string, write: boolean, index: number): void {
    const entry = this.#entry(key);
    (write ? entry.writers : entry.readers).push(index);
  }

  /** Adds to `into` the calls whose accesses overlap a read or write of `key`, with a write on
   * either side: those at the key and below it, and those at its ancestors. */
  overlapping(key: string, write: boolean, into: Set<number>): void {
    const entry = this.#entries.get(normalized(key));
    if (entry !== undefined) addBelow(entry, write, into);
    for (let up = this.#parentOf(key); up !== undefined && up !== this.#root; up = up.parent) {
      for (const k of up.writers) into.add(k);
      if (write) for (const k of up.readers) into.add(k);
    }
  }

  /** The entry of the nearest ancestor key that has one, if any (the key itself may have none). */
  #parentOf(key: string): KeyEntry | undefined {
    let path = normalized(key);
    for (let cut = path.lastIndexOf('/'); cut !== -1; cut = path.lastIndexOf('/')) {
      path = path.slice(0, cut);
      const entry = this.#entries.get(path);
      if (entry !== undefined) return entry;
    }
    return undefined;
  }

  #entry(key: string): KeyEntry {
    const path = normalized(key);
    let entry = this.#entries.get(path);
    if (entry !== undefined) return entry;
    const cut = path.lastIndexOf('/');
    const parent = cut === -1 ? this.#root : this.#entry(path.slice(0, cut));
    entry = { parent, children: undefined, readers: [], writers: [] };
    if (parent.children === undefined) parent.children = [entry];
    else parent.children.push(entry);
    this.#entries.set(path, entry);
    return entry;
  }
}

/** `key` without one trailing `/` (`fs:/a/` is `fs:/a`). */
function normalized(key: string): string {
  return key.endsWith('/') ? key.slice(0, -1) : key;
}

/** The calls at `entry` and below it that conflict with a read (or a write) there. */
function addBelow(entry: KeyEntry, write: boolean, into: Set<number>): void {
  for (const k of entry.writers) into.add(k);
  if (write) for (const k of entry.readers) into.add(k);
  for (const child of entry.children ?? []) addBelow(child, write, into);
}
