import { KeyTrie } from './key-trie.js';

/** One key of the trie: the accesses recorded at exactly this key, and which children hold some. */
interface DependencyKey {
  readonly parent: DependencyKey | undefined;
  children: Map<string, DependencyKey> | undefined;
  /** The latest call that wrote this exact key (-1: none since the subtree was last cleared). */
  write: number;
  /** Calls that read this exact key after `write`, in call order. */
  reads: number[];
  /** Children with a record at or below them. */
  readonly holding: Set<DependencyKey>;
  /** Children with a `write` at or below them. */
  readonly writing: Set<DependencyKey>;
}

/**
 * The accesses that later calls may have to wait for, by key, for {@link DependencyTracker}.
 * Keys live in a {@link KeyTrie}; each key keeps its latest writer and the readers since. A write
 * to a key clears the key's subtree: every later access that overlaps a cleared record also
 * overlaps the write, which waits for the record, so the record is implied. Each record is
 * cleared at most once, and a query walks the key's ancestors and only the subtrees that hold
 * records, so a batch costs O(accesses × key depth + answers). Internal to the package.
 */
export class DependencyIndex {
  private readonly trie = new KeyTrie<DependencyKey>(newKey);
  private readonly root = this.trie.root;

  /** The trie node of `key`, created on first use. */
  keyOf(key: string): DependencyKey {
    return this.trie.nodeOf(key);
  }

  /**
   * Calls `found` with each earlier call an access to `node` must wait for: below `node`, every
   * writer and, for a write, every reader; on the path from the root to `node`, for a write the
   * readers after the latest writer on that path; and that writer unless one of the calls
   * found already waits for it (every record below `node`, and every reader after it on the
   * path, overlaps it and came later).
   */
  query(node: DependencyKey, write: boolean, found: (call: number) => void): void {
    let latestWrite = -1;
    for (let up: DependencyKey = node; up !== this.root; up = up.parent!) {
      if (up.write > latestWrite) latestWrite = up.write;
    }
    let later = false;
    if (write) {
      for (let up: DependencyKey = node; up !== this.root; up = up.parent!) {
        const reads = up.reads;
        for (let r = reads.length - 1; r >= 0 && reads[r]! > latestWrite; r--) {
          found(reads[r]!);
          later = true;
        }
      }
    }
    if ((write ? node.holding : node.writing).size > 0) {
      collectBelow(node, write, found);
      later = true;
    }
    if (latestWrite >= 0 && !later) found(latestWrite);
  }

  /** Records an access to `node` by `call`; calls are recorded in model order. */
  record(node: DependencyKey, write: boolean, call: number): void {
    if (write) {
      if (node.holding.size > 0) clearBelow(node);
      node.write = call;
      if (node.reads.length > 0) node.reads = [];
    } else {
      node.reads.push(call);
    }
    refreshAncestors(node);
  }
}

function newKey(parent: DependencyKey | undefined): DependencyKey {
  return {
    parent,
    children: undefined,
    write: -1,
    reads: [],
    holding: new Set(),
    writing: new Set(),
  };
}

/**
 * Brings the `holding`/`writing` sets of `node`'s ancestors up to date after its records or
 * sets changed; stops as soon as an ancestor's own state does not change.
 */
function refreshAncestors(node: DependencyKey): void {
  for (let at = node, up = node.parent; up !== undefined; at = up, up = up.parent) {
    const holdsBefore = up.holding.size > 0;
    const writesBefore = up.writing.size > 0;
    if (at.write >= 0 || at.reads.length > 0 || at.holding.size > 0) up.holding.add(at);
    else up.holding.delete(at);
    if (at.write >= 0 || at.writing.size > 0) up.writing.add(at);
    else up.writing.delete(at);
    if (holdsBefore === up.holding.size > 0 && writesBefore === up.writing.size > 0) return;
  }
}

/** Reports the writers (and, for a write, the readers) strictly below `node`. */
function collectBelow(node: DependencyKey, write: boolean, found: (call: number) => void): void {
  for (const below of write ? node.holding : node.writing) {
    if (below.write >= 0) found(below.write);
    if (write) for (const read of below.reads) found(read);
    if ((write ? below.holding : below.writing).size > 0) collectBelow(below, write, found);
  }
}

/** Forgets every record strictly below `node`; the caller refreshes `node`'s ancestors. */
function clearBelow(node: DependencyKey): void {
  for (const below of node.holding) {
    below.write = -1;
    if (below.reads.length > 0) below.reads = [];
    if (below.holding.size > 0) clearBelow(below);
  }
  node.holding.clear();
  node.writing.clear();
}
