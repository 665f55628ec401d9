import { later } from './later.js';

/** Numbers per key in `records`: its nearest ancestor that is a key, then the four latest waves. */
const STRIDE = 5;
const PARENT = 0;
/** Latest wave holding a write (a read) at exactly this key. */
const HERE_WRITE = 1;
const HERE_READ = 2;
/** Latest wave holding a write (a read) at this key or any descendant. */
const BELOW_WRITE = 3;
const BELOW_READ = 4;
/** The id of the root, above every key: its records stay empty. */
const ROOT = 0;
const SLASH = 47; // '/'

/**
 * The position of the last `/` of `path` before position `end` (-1: none). By character codes:
 * `lastIndexOf` and `endsWith` took about 9% of the time spent numbering the 2 050 keys of the
 * access-list bench batch (`perf`), `lastIndexOf` mostly in the runtime.
 */
function slashBefore(path: string, end: number): number {
  let at = end - 1;
  while (at !== -1 && path.charCodeAt(at) !== SLASH) at--;
  return at;
}

/** Numbers per path in `tree`: its first child, its next sibling, and 1 once it is a key. */
const TREE_STRIDE = 3;
const FIRST_CHILD = 0;
const NEXT_SIBLING = 1;
const IS_KEY = 2;

/**
 * The latest wave holding an access that conflicts with a new one, for {@link firstFit}: the
 * {@link AccessIndex} rule (a query reads the key's subtree records and its ancestors' own
 * records, O(key depth)), keeping wave numbers only. First-fit needs no more than the latest
 * wave, so a key's records are five numbers in one typed array instead of four record objects:
 * a batch of 100 000 calls reads them from the CPU caches rather than chasing pointers (with the
 * waves built at the end, about 1.6× less CPU for 100 000 calls with access lists).
 *
 * Keys are numbered as a {@link KeyTrie} splits them (`/`-separated segments, one trailing empty
 * segment dropped), without splitting: a key's node is named by its path (the key less one
 * trailing `/`), and its parent by the path before the path's last `/`. A key first seen costs a
 * lookup or two (its directory is usually known already), not an array of segments and a
 * lookup per segment; a key seen before costs one lookup, which yields its number directly.
 * Internal to the package.
 *
 * @example
 * const index = new LatestWaveIndex();
 * index.record(index.codeOf('fs:/a/b', true), 0);
 * index.latest(index.codeOf('fs:/a', false)); // 0: reading fs:/a conflicts with the write below it
 */
export class LatestWaveIndex {
  private records = new Int32Array(STRIDE * 64).fill(-1);
  private tree = new Int32Array(TREE_STRIDE * 64);
  private count = 1;
  /** Key, as given → its number. Prototype-less objects: V8 looks strings up faster than in a Map. */
  private readonly ids: Record<string, number | undefined> = Object.create(null);
  /** Path (a key less one trailing `/`) → its number. Apart from `ids`: `a/` is the path of `a//`. */
  private readonly paths: Record<string, number | undefined> = Object.create(null);

  /** The number of `key`, made on first use. */
  idOf(key: string): number {
    // Small, so the compiler inlines it into first-fit's loop, and not `newId` (rarely called).
    const known = this.ids[key];
    return known === undefined ? this.newId(key) : known;
  }

  /** Numbers a key first seen. */
  private newId(key: string): number {
    const trailing = key.length > 0 && key.charCodeAt(key.length - 1) === SLASH;
    const id = this.pathId(trailing ? key.slice(0, -1) : key);
    this.ids[key] = id;
    if (this.tree[id * TREE_STRIDE + IS_KEY] === 0) this.becomeKey(id);
    return id;
  }

  /**
   * An access as one number, as {@link latest} and {@link record} take it: the number of `key`
   * × 2, + 1 for a write.
   */
  codeOf(key: string, write: boolean): number {
    return this.idOf(key) * 2 + (write ? 1 : 0);
  }

  /** The latest wave holding an access that conflicts with access `code` ({@link codeOf}); -1: none. */
  latest(code: number): number {
    const records = this.records;
    // The mode is the code's low bit, used as a number: no branch on it, which the CPU would
    // guess wrong whenever reads and writes mix.
    const write = code & 1;
    const at = (code >> 1) * STRIDE;
    // A read conflicts with writes only: its BELOW_READ is taken as -1 (`| -1` for a read).
    let wave = later(records[at + BELOW_WRITE]!, records[at + BELOW_READ]! | (write - 1));
    // An ancestor's own writes conflict with both modes; its own reads with a write only.
    const here = HERE_WRITE + write * (HERE_READ - HERE_WRITE);
    for (let up = records[at + PARENT]!; up !== ROOT; up = records[up * STRIDE + PARENT]!) {
      const base = up * STRIDE;
      wave = later(wave, later(records[base + HERE_WRITE]!, records[base + here]!));
    }
    return wave;
  }

  /** Records that `wave` holds access `code` ({@link codeOf}). */
  record(code: number, wave: number): void {
    const records = this.records;
    const write = code & 1;
    const id = code >> 1;
    const here = id * STRIDE + HERE_READ - write * (HERE_READ - HERE_WRITE);
    records[here] = later(records[here]!, wave);
    // Every key from `id` up: the walk is as long as the key is deep, with no early stop, whose
    // test the CPU would guess wrong as often as right.
    const below = BELOW_READ - write * (BELOW_READ - BELOW_WRITE);
    for (let up = id; up !== ROOT; up = records[up * STRIDE + PARENT]!) {
      const at = up * STRIDE + below;
      records[at] = later(records[at]!, wave);
    }
  }

  /** The number of `path`, made on first use with those of its missing ancestors. */
  private pathId(path: string): number {
    const known = this.paths[path];
    if (known !== undefined) return known;
    // Up to the nearest ancestor known (or the root), then down, numbering each path.
    const missing = [path];
    let parent = ROOT;
    for (let last = slashBefore(path, path.length); last !== -1; ) {
      const above = path.slice(0, last);
      const id = this.paths[above];
      if (id !== undefined) {
        parent = id;
        break;
      }
      missing.push(above);
      last = slashBefore(path, last);
    }
    for (let m = missing.length - 1; m >= 0; m--) {
      parent = this.newPath(parent);
      this.paths[missing[m]!] = parent;
    }
    return parent;
  }

  /** A new path below path `parent` (ROOT: none), not a key yet. */
  private newPath(parent: number): number {
    const id = this.count++;
    if ((id + 1) * STRIDE > this.records.length) {
      const grown = new Int32Array(this.records.length * 2).fill(-1);
      grown.set(this.records);
      this.records = grown;
      const tree = new Int32Array(this.tree.length * 2);
      tree.set(this.tree);
      this.tree = tree;
    }
    const { records, tree } = this;
    const above = parent * TREE_STRIDE;
    // Its nearest ancestor that is a key: its parent's, or its parent.
    records[id * STRIDE + PARENT] =
      parent === ROOT || tree[above + IS_KEY] === 1 ? parent : records[parent * STRIDE + PARENT]!;
    tree[id * TREE_STRIDE + NEXT_SIBLING] = tree[above + FIRST_CHILD]!;
    tree[above + FIRST_CHILD] = id;
    return id;
  }

  /**
   * Makes path `id` a key. Queries and records walk from key to key (the paths between hold no
   * record), so each path below it up to the next keys now points to it, and it takes over the
   * records of those next keys. A path is repointed only to a nearer ancestor, so this costs
   * O(paths × key depth) over a batch, as making the paths does.
   */
  private becomeKey(id: number): void {
    const { records, tree } = this;
    tree[id * TREE_STRIDE + IS_KEY] = 1;
    let write = -1;
    let read = -1;
    const stack = [id];
    while (stack.length > 0) {
      const path = stack.pop()!;
      for (
        let child = tree[path * TREE_STRIDE + FIRST_CHILD]!;
        child !== ROOT;
        child = tree[child * TREE_STRIDE + NEXT_SIBLING]!
      ) {
        const at = child * STRIDE;
        records[at + PARENT] = id;
        if (tree[child * TREE_STRIDE + IS_KEY] === 1) {
          write = Math.max(write, records[at + BELOW_WRITE]!);
          read = Math.max(read, records[at + BELOW_READ]!);
        } else stack.push(child);
      }
    }
    records[id * STRIDE + BELOW_WRITE] = write;
    records[id * STRIDE + BELOW_READ] = read;
  }
}
