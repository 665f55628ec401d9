import type { PlanNode, PreviousEdgeSource } from '@toolwaves/planner';
import fc from 'fast-check';

// Ordering edges laid over generated batches: each call may name some earlier calls (`after`)
// and about one in six follows every earlier call (`afterPrevious`).

const previous = fc.constantFrom<PreviousEdgeSource>('after-previous', 'wait_for_previous');

/** `batch` with random ordering edges on its calls (edges only ever point to earlier calls). */
export const withEdges = (batch: fc.Arbitrary<PlanNode[]>): fc.Arbitrary<PlanNode[]> =>
  batch.chain((nodes) =>
    fc
      .tuple(
        ...nodes.map((node) =>
          fc.record({
            after: fc.option(
              fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, node.index - 1) }), {
                maxLength: 3,
              }),
              { nil: undefined, freq: 2 },
            ),
            afterPrevious: fc.option(previous, { nil: undefined, freq: 5 }),
          }),
        ),
      )
      .map((edges) =>
        nodes.map((node, index): PlanNode => {
          const { after, afterPrevious } = edges[index]!;
          const earlier = index === 0 ? undefined : after;
          return {
            ...node,
            ...(earlier === undefined ? {} : { after: earlier }),
            ...(afterPrevious === undefined ? {} : { afterPrevious }),
          };
        }),
      ),
  );

/** Plainly: every (earlier, later, source) pair an edge joins, the `after` list winning ties. */
export function referenceEdges(nodes: readonly PlanNode[]): [number, number, string][] {
  const pairs: [number, number, string][] = [];
  for (const node of nodes) {
    for (let earlier = 0; earlier < node.index; earlier++) {
      if (node.after?.includes(earlier)) pairs.push([earlier, node.index, 'after']);
      else if (node.afterPrevious !== undefined) {
        pairs.push([earlier, node.index, node.afterPrevious]);
      }
    }
  }
  return pairs;
}
