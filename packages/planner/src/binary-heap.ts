/**
 * A min-priority queue of call indices under a comparison, for eager scheduling and the
 * event-driven simulator: a binary heap, beside a run of items pushed in order. Calls mostly
 * become ready in the order they come out (model order, ascending ends): such an item is
 * appended to the run and taken from its head in O(1), and only an item that comes before the
 * run's last one goes into the heap (O(log n)). A pop takes the first of the run's head and the
 * heap's top. Internal to the package.
 *
 * @example
 * const heap = new BinaryHeap((a, b) => a - b);
 * heap.push(3); heap.push(1); heap.pop(); // 1
 */
export class BinaryHeap {
  private readonly items: number[] = [];
  /** Items pushed in order, from `head` on (those before `head` were popped). */
  private readonly run: number[] = [];
  private head = 0;
  private readonly before: (a: number, b: number) => number;

  /** `before(a, b) < 0` when `a` comes out first. */
  constructor(before: (a: number, b: number) => number) {
    this.before = before;
  }

  get size(): number {
    return this.items.length + this.run.length - this.head;
  }

  /** The first item, without removing it (`undefined` when empty). */
  peek(): number | undefined {
    return this.fromRun() ? this.run[this.head] : this.items[0];
  }

  push(item: number): void {
    const run = this.run;
    if (run.length === this.head || this.before(run[run.length - 1]!, item) <= 0) {
      run.push(item);
      return;
    }
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
    if (this.fromRun()) return this.shift();
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

  /** Whether the first item is the run's head (the run is not empty, and the heap's top is not before it). */
  private fromRun(): boolean {
    if (this.head === this.run.length) return false;
    return this.items.length === 0 || this.before(this.run[this.head]!, this.items[0]!) <= 0;
  }

  /** Takes the run's head; the popped prefix is dropped once it is most of the run. */
  private shift(): number {
    const run = this.run;
    const item = run[this.head++]!;
    if (this.head === run.length) {
      run.length = 0;
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= run.length) {
      run.splice(0, this.head);
      this.head = 0;
    }
    return item;
  }
}
