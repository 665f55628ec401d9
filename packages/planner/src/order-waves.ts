import type { ConflictGraph } from './conflict-graph.js';
import type { Wave } from './types.js';

/**
 * Turns a partition of the safe calls into the waves of a plan. `blocks` are groups of safe
 * positions ({@link ConflictGraph} numbering, each ascending) with no conflict inside a group
 * and no cycle among groups; their cost does not depend on their order, so any order that
 * keeps rule 4 will do. This one is the topological order that always runs next the ready group
 * holding the earliest call, with every call that is not concurrency-safe as a group of its own
 * (no rule but its ordering edges, `unsafeEdges`, orders it): calls stay as close to model
 * order as the partition lets them.
 * Safe waves are marked open (they could take more safe calls), the others closed.
 * Internal to the package.
 *
 * @example
 * // safe calls 0 and 2 conflict, call 1 is not concurrency-safe
 * orderWaves(graph, [[0], [1]]); // [{ calls: [0], open: true }, { calls: [1], open: false }, { calls: [2], open: true }]
 */
export function orderWaves(graph: ConflictGraph, blocks: readonly (readonly number[])[]): Wave[] {
  const blockOf = new Int32Array(graph.safe.length);
  blocks.forEach((block, b) => {
    for (const position of block) blockOf[position] = b;
  });
  // Groups: the safe blocks first, then one per unsafe call.
  const count = blocks.length + graph.unsafe.length;
  const first = (group: number): number =>
    group < blocks.length ? graph.safe[blocks[group]![0]!]! : graph.unsafe[group - blocks.length]!;
  const waiting = new Int32Array(count);
  const next: number[][] = Array.from({ length: count }, () => []);
  graph.earlier.forEach((before, position) => {
    const to = blockOf[position]!;
    for (const from of before) {
      if (blockOf[from] === to) continue;
      next[blockOf[from]!]!.push(to);
      waiting[to]!++;
    }
  });

  // Ordering edges that touch an unsafe call order its group too.
  if (graph.unsafeEdges.length > 0) {
    const group = new Map<number, number>();
    for (let position = 0; position < graph.safe.length; position++) {
      group.set(graph.safe[position]!, blockOf[position]!);
    }
    for (let u = 0; u < graph.unsafe.length; u++) group.set(graph.unsafe[u]!, blocks.length + u);
    for (const [before, after] of graph.unsafeEdges) {
      const from = group.get(before)!;
      const to = group.get(after)!;
      next[from]!.push(to);
      waiting[to]!++;
    }
  }

  const ready: number[] = [];
  for (let group = 0; group < count; group++) if (waiting[group] === 0) ready.push(group);
  const waves: Wave[] = [];
  while (ready.length > 0) {
    let pick = 0;
    for (let r = 1; r < ready.length; r++) if (first(ready[r]!) < first(ready[pick]!)) pick = r;
    const group = ready[pick]!;
    ready[pick] = ready[ready.length - 1]!;
    ready.pop();
    if (group >= blocks.length) waves.push({ calls: [first(group)], open: false });
    else waves.push({ calls: blocks[group]!.map((position) => graph.safe[position]!), open: true });
    for (const to of next[group]!) if (--waiting[to]! === 0) ready.push(to);
  }
  return waves;
}
