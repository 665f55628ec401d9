/** What a {@link KeyTrie} node holds for the trie itself: its parent and its children by segment. */
export interface TrieNode<N> {
  readonly parent: N | undefined;
  children: Map<string, N> | undefined;
}

/**
 * Resource keys as a trie of their `/`-separated segments, the shape both
 * {@link AccessIndex} and {@link DependencyIndex} keep their records in. A trailing empty
 * segment is dropped, so `fs:/a/` is `fs:/a`, matching {@link keysOverlap}; each distinct key
 * is split only once. The nodes are the caller's own type, made by `newNode`. Internal to the
 * package.
 *
 * @example
 * const trie = new KeyTrie<KeyNode>((parent) => new KeyNode(parent));
 * trie.nodeOf('fs:/a/b').parent === trie.nodeOf('fs:/a'); // true
 */
export class KeyTrie<N extends TrieNode<N>> {
  /** The node above every key (no key of its own). */
  readonly root: N;
  private readonly newNode: (parent: N | undefined) => N;
  /** Key → node. A prototype-less object: V8 looks string keys up faster here than in a Map. */
  private readonly nodes: Record<string, N | undefined> = Object.create(null);

  constructor(newNode: (parent: N | undefined) => N) {
    this.newNode = newNode;
    this.root = newNode(undefined);
  }

  /** The node of `key`, created (with its missing ancestors) on first use. */
  nodeOf(key: string): N {
    const known = this.nodes[key];
    if (known !== undefined) return known;
    let node = this.root;
    if (key.indexOf('/') === -1) {
      node = this.child(node, key);
    } else {
      const segments = key.split('/');
      if (segments[segments.length - 1] === '') segments.pop();
      for (const segment of segments) node = this.child(node, segment);
    }
    this.nodes[key] = node;
    return node;
  }

  private child(node: N, segment: string): N {
    node.children ??= new Map();
    let next = node.children.get(segment);
    if (next === undefined) {
      next = this.newNode(node);
      node.children.set(segment, next);
    }
    return next;
  }
}
