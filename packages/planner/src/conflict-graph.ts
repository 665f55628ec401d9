import { conflicts } from './conflicts.js';
import { edgesOf, hasEdges } from './edges-of.js';
import { estimateOf } from './estimate-of.js';
import type { PlanNode } from './types.js';

/**
 * The concurrency-safe calls of a batch and the conflicts among them, as the searching planners
 * see it. Safe calls are numbered by their position in `safe` (ascending model order), so the
 * precedence of rule 4 always points from a lower position to a higher one. Calls that are not
 * concurrency-safe only need a wave of their own, anywhere (rule 2; rule 4 orders safe calls
 * only, as {@link verifyPlan} reads it), so they are listed apart. Internal to the package.
 */
export interface ConflictGraph {
  /** Model index of each concurrency-safe call, ascending. */
  readonly safe: readonly number[];
  /** Model index of each call that is not concurrency-safe, ascending. */
  readonly unsafe: readonly number[];
  /** Estimated duration of each safe call (by position in `safe`). */
  readonly durations: readonly number[];
  /** For each safe call, the positions of the earlier safe calls it conflicts with, ascending. */
  readonly earlier: readonly (readonly number[])[];
  /** For each safe call, the positions of the later safe calls it conflicts with, ascending. */
  readonly later: readonly (readonly number[])[];
  /**
   * The ordering edges that touch a call that is not concurrency-safe, as `[before, after]`
   * model indices: the order of the waves must keep them. (Safe calls that an edge joins, or a
   * chain of edges through unsafe calls, are in `earlier`/`later` as a conflict.)
   */
  readonly unsafeEdges: readonly (readonly [number, number])[];
}

/** Options of {@link conflictGraph}. */
export interface ConflictGraphOptions {
  /** A `performance.now()` value: give up (return `undefined`) once it has passed. */
  readonly deadline?: number;
}

/**
 * Builds the {@link ConflictGraph} of a batch by comparing every pair of safe calls with
 * {@link conflicts}: O(n²), so it checks the deadline before each row and returns `undefined`
 * when the batch is too large to compare in time. Nodes must already be validated.
 *
 * @example conflictGraph(nodes)?.earlier[3] // [0, 2]: safe calls 0 and 2 must run before 3
 */
export function conflictGraph(
  nodes: readonly PlanNode[],
  options: ConflictGraphOptions = {},
): ConflictGraph | undefined {
  const deadline = options.deadline ?? Number.POSITIVE_INFINITY;
  const safe: number[] = [];
  const unsafe: number[] = [];
  for (const node of nodes) (node.parallelizable ? safe : unsafe).push(node.index);
  const durations = safe.map((call) => estimateOf(nodes[call]!));
  const earlier: number[][] = safe.map(() => []);
  const later: number[][] = safe.map(() => []);
  const positionOf = new Int32Array(nodes.length).fill(-1);
  safe.forEach((call, position) => {
    positionOf[call] = position;
  });
  const { reach, unsafeEdges } = edgesThroughUnsafe(nodes, positionOf);
  for (let b = 1; b < safe.length; b++) {
    if (performance.now() > deadline) return undefined;
    const node = nodes[safe[b]!]!;
    const reached = reach[safe[b]!];
    for (let a = 0; a < b; a++) {
      if (conflicts(nodes[safe[a]!]!, node) || reached?.has(a) === true) {
        earlier[b]!.push(a);
        later[a]!.push(b);
      }
    }
  }
  return { safe, unsafe, durations, earlier, later, unsafeEdges };
}

/**
 * Per call, the safe calls (by position) that reach it through a chain of ordering edges whose
 * inner calls are all unsafe: they must run in an earlier wave although the search does not see
 * the unsafe calls between them. Also lists the edges that touch an unsafe call.
 */
function edgesThroughUnsafe(
  nodes: readonly PlanNode[],
  positionOf: Int32Array,
): { reach: (Set<number> | undefined)[]; unsafeEdges: [number, number][] } {
  const reach: (Set<number> | undefined)[] = [];
  const unsafeEdges: [number, number][] = [];
  for (const node of nodes) {
    if (!hasEdges(node)) continue;
    const reached = new Set<number>();
    for (const { call } of edgesOf(node)) {
      const position = positionOf[call]!;
      if (position >= 0) reached.add(position);
      else for (const through of reach[call] ?? []) reached.add(through);
      if (position < 0 || !node.parallelizable) unsafeEdges.push([call, node.index]);
    }
    reach[node.index] = reached;
  }
  return { reach, unsafeEdges };
}
