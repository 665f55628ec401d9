import { assertNode, assertNodeList, isWriteAccess } from './assert-nodes.js';
import { DependencyIndex } from './dependency-index.js';
import type { PlanNode } from './types.js';

/**
 * Finds, one arriving call at a time, the earlier calls each call must wait for when calls
 * start as soon as they may (eager scheduling, streamed calls):
 * - rule 4: a concurrency-safe call waits for every earlier call it {@link conflicts} with
 *   (overlapping `/`-keys, at least one of the two a write);
 * - rule 5, both ways: a call that is not concurrency-safe waits for every earlier call, and
 *   every later call waits for it;
 * - ordering edges: a call waits for each call of its `after` list, and for every earlier call
 *   when `afterPrevious` is set (see {@link edgesOf}).
 *
 * Each answer is a small set with that meaning, ascending: waits implied by others are left out
 * (after a call that is not concurrency-safe, a keyless call waits for that call alone; a write
 * waits for the latest overlapping writer, or the readers since it). Waiting for every call of
 * an answer, and transitively for theirs, is exactly waiting for every call the rules name.
 * Answers only point to earlier calls, so they are known the moment a call arrives.
 *
 * Cost: O(accesses × key depth) per call plus the size of its answer, whatever the batch size;
 * no pair of calls is compared.
 *
 * @example
 * const tracker = new DependencyTracker();
 * tracker.add({ index: 0, parallelizable: true, access: [{ key: 'fs:/a', mode: 'write' }] }); // []
 * tracker.add({ index: 1, parallelizable: true, access: [{ key: 'fs:/a/b', mode: 'read' }] }); // [0]
 * tracker.add({ index: 2, parallelizable: false }); // [1]: call 1 already waits for call 0
 * @see dependencies
 * @see conflicts
 */
export class DependencyTracker {
  private index = new DependencyIndex();
  /**
   * Calls since the latest call that is not concurrency-safe (and that call), in model order;
   * those a later call already waits for are marked in `waitedOn` and skipped when read.
   */
  private frontier: number[] = [];
  /** `waitedOn[call]`: a later call already waits for `call`, so it left the frontier. */
  private readonly waitedOn: boolean[] = [];
  /** The latest call that is not concurrency-safe, -1 before the first. */
  private barrier = -1;
  /** `marks[call] === count` when `call` is already in the answer being built. */
  private readonly marks: number[] = [];
  private count = 0;
  private answer: number[] = [];
  private readonly found = (call: number): void => {
    if (this.marks[call] === this.count) return;
    this.marks[call] = this.count;
    this.answer.push(call);
  };

  /** How many calls were added. */
  get size(): number {
    return this.count;
  }

  /**
   * Adds the next call in model order and returns the earlier calls it waits for, ascending.
   *
   * @throws {PlannerError} `invalid_nodes` when the node is malformed or `node.index` is not the
   * number of calls added before it; nothing is recorded then.
   */
  add(node: PlanNode): readonly number[] {
    // A fresh array every time: `dependencies` hands these out as its own.
    const call = this.count;
    assertNode(node, call);
    this.waitedOn.push(false);
    if (!node.parallelizable) {
      const answer = this.frontier.filter((earlier) => !this.waitedOn[earlier]);
      this.frontier = [call];
      this.barrier = call;
      this.index = new DependencyIndex();
      this.count++;
      return answer;
    }
    const { resourceKey, access } = node;
    const writes: boolean[] = [];
    if (access !== undefined) {
      for (let a = 0; a < access.length; a++) writes.push(isWriteAccess(access[a]!, call, a));
    }
    this.answer = [];
    // Query every access first, record them after: a call never waits for itself.
    const ownKey = resourceKey === undefined ? undefined : this.index.keyOf(resourceKey);
    if (ownKey !== undefined) this.index.query(ownKey, true, this.found);
    const keys = access === undefined ? [] : access.map((entry) => this.index.keyOf(entry.key));
    for (let a = 0; a < keys.length; a++) this.index.query(keys[a]!, writes[a]!, this.found);
    if (ownKey !== undefined) this.index.record(ownKey, true, call);
    for (let a = 0; a < keys.length; a++) this.index.record(keys[a]!, writes[a]!, call);

    let answer = this.answer;
    if (node.afterPrevious !== undefined) {
      // Every earlier call: those of the frontier no later call waits for imply all the others.
      answer = this.frontier.filter((earlier) => !this.waitedOn[earlier]);
    } else if (node.after !== undefined) {
      // An edge to a call up to the barrier is implied: this call waits for the barrier anyway.
      for (const earlier of node.after) if (earlier > this.barrier) this.found(earlier);
    }
    if (answer.length === 0 && this.barrier >= 0) answer.push(this.barrier);
    for (const earlier of answer) this.waitedOn[earlier] = true;
    this.frontier.push(call);
    this.count = call + 1;
    return answer.length > 1 ? answer.sort(ascending) : answer;
  }
}

/**
 * For each call of a batch, the earlier calls it must wait for when calls start as soon as they
 * may: `dependencies(nodes)[i]` is what {@link DependencyTracker.add} answers for `nodes[i]`
 * (rule 4 for conflicting concurrency-safe calls, rule 5 both ways for calls that are not,
 * ordering edges; waits implied by others left out).
 *
 * @throws {PlannerError} `invalid_nodes` for a malformed node.
 * @example
 * dependencies([
 *   { index: 0, parallelizable: true, resourceKey: 'a' },
 *   { index: 1, parallelizable: true, resourceKey: 'b' },
 *   { index: 2, parallelizable: true, resourceKey: 'a' },
 *   { index: 3, parallelizable: false },
 * ]); // [[], [], [0], [1, 2]]
 * @see DependencyTracker
 */
export function dependencies(nodes: readonly PlanNode[]): number[][] {
  assertNodeList(nodes);
  const tracker = new DependencyTracker();
  return nodes.map((node) => tracker.add(node) as number[]);
}

const ascending = (a: number, b: number): number => a - b;
