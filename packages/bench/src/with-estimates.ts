import type { Planner } from '@toolwaves/planner';

/**
 * A planner that plans with the given per-call estimates in place of the nodes' own
 * `estimateMs` (which, in a dispatcher, come from its health record per tool). The bench's
 * real runs use it so that a duration-aware planner plans each batch with the same durations
 * the simulation used, as a perfectly informed health record would.
 *
 * @example new Dispatcher({ registry, mode: 'parallel', planner: withEstimates({ planner, estimatesMs }) });
 */
export function withEstimates(options: {
  planner: Planner;
  estimatesMs: readonly number[];
}): Planner {
  const { planner, estimatesMs } = options;
  return {
    name: planner.name,
    plan: (nodes, planOptions) =>
      planner.plan(
        nodes.map((node) => {
          const estimateMs = estimatesMs[node.index];
          return estimateMs === undefined ? node : { ...node, estimateMs };
        }),
        planOptions,
      ),
  };
}
