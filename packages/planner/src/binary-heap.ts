/**
 * A binary min-heap of call indices under a comparison, for the event-driven simulator.
 * Internal to the package.
 *
 * @example
 * const heap = new BinaryHeap((a, b) => a - b);
 * heap.push(3); heap.push(1); heap.pop(); // 1
 */
export class BinaryHeap {
  private readonly items: number[] = [];
  private readonly before: (a: number, b: number) => number;

  /** `before(a, b) < 0` when `a` comes out first. */
  constructor(before: (a: number, b: number) => number) {
    this.before = before;
  }

  get size(): number {
    return this.items.length;
  }

  /** The first item, without removing it (`undefined` when empty). */
  peek(): number | undefined {
    return this.items[0];
  }

  push(item: number): void {
    const items = this.items;
    let at = items.length;
    items.push(item);
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (this.before(items[parent]!, item) <= 0) break;
      items[at] = items[parent]!;
      at = parent;
    }
    items[at] = item;
  }

  /** Removes and returns the first item (`undefined` when empty). */
  pop(): number | undefined {
    const items = this.items;
    const first = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return first;
    const size = items.length;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && this.before(items[right]!, items[left]!) < 0 ? right : left;
      if (this.before(last, items[child]!) <= 0) break;
      items[at] = items[child]!;
      at = child;
    }
    items[at] = last;
    return first;
  }
}
