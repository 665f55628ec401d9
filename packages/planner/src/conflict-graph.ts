import { conflicts } from './conflicts.js';
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
  for (let b = 1; b < safe.length; b++) {
    if (performance.now() > deadline) return undefined;
    const node = nodes[safe[b]!]!;
    for (let a = 0; a < b; a++) {
      if (conflicts(nodes[safe[a]!]!, node)) {
        earlier[b]!.push(a);
        later[a]!.push(b);
      }
    }
  }
  return { safe, unsafe, durations, earlier, later };
}
