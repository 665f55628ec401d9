import { KeyTrie } from './key-trie.js';

/**
 * A record of the index: the highest value recorded for a set of accesses, and which access
 * of which call recorded it (`access` is the position in the call's {@link accessesOf} list).
 */
export class AccessRecord {
  value = NONE;
  call = -1;
  access = -1;

  /** Takes `value` if it beats this record: higher, or equal from an earlier call. */
  offer(value: number, call: number, access: number): boolean {
    if (value < this.value || (value === this.value && call >= this.call && this.call !== -1)) {
      return false;
    }
    this.value = value;
    this.call = call;
    this.access = access;
    return true;
  }

  /** Takes `other` if it beats this record. */
  offerRecord(other: AccessRecord): boolean {
    return other.value !== NONE && this.offer(other.value, other.call, other.access);
  }

  /** Forgets everything. */
  clear(): void {
    this.value = NONE;
    this.call = -1;
    this.access = -1;
  }
}

/** The value of an empty {@link AccessRecord}; recorded values are from 0 up. */
export const NONE = -1;

/** One key of the trie: a `/`-separated path, with the best records at and below it. */
export class KeyNode {
  readonly parent: KeyNode | undefined;
  children: Map<string, KeyNode> | undefined = undefined;
  /** Best write and best read recorded at exactly this key. */
  readonly hereWrite = new AccessRecord();
  readonly hereRead = new AccessRecord();
  /** Best write and best read recorded at this key or any descendant. */
  readonly belowWrite = new AccessRecord();
  readonly belowRead = new AccessRecord();

  constructor(parent: KeyNode | undefined) {
    this.parent = parent;
  }
}

/**
 * Finds, without comparing all pairs, the best earlier access that conflicts with a new one.
 * Keys live in a {@link KeyTrie}; each key node keeps the best record at it and below it, per
 * mode. A query walks the key's ancestors (their own records) and reads the key's subtree
 * records: O(depth) per access, whatever the batch size. Internal to the package; the planners
 * record wave positions, {@link lowerBound} records chain lengths.
 */
export class AccessIndex {
  private readonly trie = new KeyTrie<KeyNode>((parent) => new KeyNode(parent));
  private readonly root = this.trie.root;

  /** The trie node of `key`, created on first use; each distinct key is split only once. */
  keyNode(key: string): KeyNode {
    return this.trie.nodeOf(key);
  }

  /**
   * Raises `best` to the best record that conflicts with an access to `node` (overlapping key,
   * at least one of the two a write). Returns whether `best` changed.
   */
  latest(node: KeyNode, write: boolean, best: AccessRecord): boolean {
    let changed = best.offerRecord(node.belowWrite);
    if (write && best.offerRecord(node.belowRead)) changed = true;
    for (let up = node.parent; up !== this.root && up !== undefined; up = up.parent) {
      if (best.offerRecord(up.hereWrite)) changed = true;
      if (write && best.offerRecord(up.hereRead)) changed = true;
    }
    return changed;
  }

  /** Records an access to `node` by `call` (its `access`-th) with `value` (from 0 up). */
  record(node: KeyNode, write: boolean, value: number, call: number, access: number): void {
    (write ? node.hereWrite : node.hereRead).offer(value, call, access);
    for (let up: KeyNode | undefined = node; up !== this.root && up !== undefined; up = up.parent) {
      if (!(write ? up.belowWrite : up.belowRead).offer(value, call, access)) break;
    }
  }
}
