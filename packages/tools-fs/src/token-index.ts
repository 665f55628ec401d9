/** A newer token that refuses a write: where it was seen, and its value. */
export interface NewerToken {
  readonly key: string;
  readonly token: number;
}

/** The key shown when the floor refuses a token. */
const FLOOR_KEY = '(any key: older records were folded)';

/**
 * The highest fencing token recorded per key, in memory, answering "was a newer token recorded
 * for a key overlapping these?" without a scan: besides each key's own token it keeps, for every
 * ancestor of a recorded key (by the planner's rule: `fs:/a` and `fs:/a/` are ancestors of
 * `fs:/a/b`), the highest token recorded below it. A query looks at the key, its ancestors and
 * what is below it: a few map lookups.
 *
 * Bounded: past `maxKeys`, the keys recorded longest ago are folded into their parent (a record
 * on `fs:/a` refuses every older writer of `fs:/a/b` too, so folding only refuses more, never
 * less); a key with no parent is folded into the `floor`, refusing older tokens for every key.
 */
export class TokenIndex {
  #floor = 0;
  /** The highest token recorded for any key: a query for a token at or above it finds none. */
  #highest = 0;
  /** Insertion order is recency: a raised key is moved to the end. */
  readonly #tokens = new Map<string, number>();
  readonly #below = new Map<string, NewerToken>();
  /**
   * The ancestors of keys looked at lately, made once per key: a write asks about its key two or
   * three times, and lookups with the same strings skip hashing them again.
   */
  readonly #ancestors = new Map<string, readonly string[]>();
  readonly #maxKeys: number;

  constructor(options: { readonly maxKeys: number }) {
    this.#maxKeys = options.maxKeys;
  }

  get floor(): number {
    return this.#floor;
  }

  get size(): number {
    return this.#tokens.size;
  }

  /** A token above `token` for a key overlapping one of `keys` (or the floor), if any. */
  newerThan(keys: readonly string[], token: number): NewerToken | undefined {
    if (token < this.#floor) return { key: FLOOR_KEY, token: this.#floor };
    // the common case: the newest grant so far (tokens only grow), no lookup needed
    if (token >= this.#highest) return undefined;
    for (const key of keys) {
      const own = this.#tokens.get(key);
      if (own !== undefined && own > token) return { key, token: own };
      const below = this.#below.get(key);
      if (below !== undefined && below.token > token) return below;
      for (const ancestor of this.#ancestorsOf(key)) {
        const above = this.#tokens.get(ancestor);
        if (above !== undefined && above > token) return { key: ancestor, token: above };
      }
    }
    return undefined;
  }

  /** Whether `token` is already recorded (or exceeded) for `key`. */
  covers(key: string, token: number): boolean {
    return (this.#tokens.get(key) ?? 0) >= token;
  }

  /** Records `token` for `key` unless a higher one is there; folds past `maxKeys`. */
  raise(key: string, token: number): void {
    const own = this.#tokens.get(key);
    if (own !== undefined && own >= token) return;
    this.#tokens.delete(key);
    this.#tokens.set(key, token);
    if (token > this.#highest) this.#highest = token;
    const record: NewerToken = { key, token };
    for (const ancestor of this.#ancestorsOf(key)) {
      const below = this.#below.get(ancestor);
      if (below === undefined || below.token < token) this.#below.set(ancestor, record);
    }
    if (this.#tokens.size > this.#maxKeys) this.#fold();
  }

  /** Raises the floor: every token below it is refused, for every key. */
  raiseFloor(token: number): void {
    this.#floor = Math.max(this.#floor, token);
  }

  /** Every key and its token, oldest first (what a compacted record file holds). */
  entries(): IterableIterator<[string, number]> {
    return this.#tokens.entries();
  }

  #ancestorsOf(key: string): readonly string[] {
    let found = this.#ancestors.get(key);
    if (found === undefined) {
      // bounded like the keys: forgotten all at once, made again on demand
      if (this.#ancestors.size >= this.#maxKeys) this.#ancestors.clear();
      found = ancestorsOf(key);
      this.#ancestors.set(key, found);
    }
    return found;
  }

  #fold(): void {
    const target = Math.floor(this.#maxKeys / 2);
    while (this.#tokens.size > target) {
      const oldest = this.#tokens.keys().next();
      if (oldest.done === true) return;
      const key = oldest.value;
      const token = this.#tokens.get(key) ?? 0;
      this.#tokens.delete(key);
      const parent = parentOf(key);
      if (parent === undefined) this.raiseFloor(token);
      else if ((this.#tokens.get(parent) ?? -1) < token) {
        this.#tokens.delete(parent);
        this.#tokens.set(parent, token);
      }
    }
  }
}

/**
 * Every key that `keysOverlap` counts as an ancestor of `key`: each prefix ending right before a
 * `/`, and each prefix ending with a `/` (`fs:`, `fs:/`, `fs:/a`, `fs:/a/` for `fs:/a/b`).
 */
export function ancestorsOf(key: string): string[] {
  const found: string[] = [];
  for (let i = 1; i < key.length; i += 1) {
    if (key.charCodeAt(i - 1) === SLASH) found.push(key.slice(0, i));
    if (key.charCodeAt(i) === SLASH && key.charCodeAt(i - 1) !== SLASH) found.push(key.slice(0, i));
  }
  return found;
}

/** The nearest ancestor without a trailing `/`, or the nearest at all; none for a plain name. */
function parentOf(key: string): string | undefined {
  const ancestors = ancestorsOf(key);
  for (let i = ancestors.length - 1; i >= 0; i -= 1) {
    const ancestor = ancestors[i] as string;
    if (!ancestor.endsWith('/')) return ancestor;
  }
  return ancestors.at(-1);
}

const SLASH = 47;
