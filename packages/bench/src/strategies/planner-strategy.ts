import type { Plan, PlanNode, Planner } from '@toolwaves/planner';
import { type Strategy, streamEnd } from './strategy.js';

/** Options of {@link plannerStrategy}. */
export interface PlannerStrategyOptions {
  /** The row's name (default the planner's). */
  readonly name?: string;
  /** The row's sentence (default: "`name` waves, …"). */
  readonly description?: string;
  /** Mark the strategy as seeing the sampled durations (default false). */
  readonly clairvoyant?: boolean;
}

/**
 * A planner as a strategy, the way the executor's parallel mode runs it: plan the batch on the
 * estimates, run the waves one after another (streamed: after the last call arrived). The
 * batch and streamed runs of one turn plan once (plans are kept per node list).
 *
 * @example
 * plannerStrategy(greedyPlanner()).execute({ nodes, maxConcurrency: 8 }); // { kind: 'waves', plan,
 * ... }
 * @see Strategy
 */
export function plannerStrategy(planner: Planner, options: PlannerStrategyOptions = {}): Strategy {
  const plans = new WeakMap<readonly PlanNode[], { cap: number; plan: Plan }>();
  const name = options.name ?? planner.name;
  return {
    name,
    description:
      options.description ??
      `The \`${planner.name}\` planner's waves, one after another (a streamed turn waits for its last call).`,
    ...(options.clairvoyant === true ? { clairvoyant: true } : {}),
    planner,
    execute(turn) {
      let cached = plans.get(turn.nodes);
      if (cached?.cap !== turn.maxConcurrency) {
        cached = {
          cap: turn.maxConcurrency,
          plan: planner.plan(turn.nodes, { maxConcurrency: turn.maxConcurrency }),
        };
        plans.set(turn.nodes, cached);
      }
      return {
        kind: 'waves',
        plan: cached.plan,
        maxConcurrency: turn.maxConcurrency,
        startMs: streamEnd(turn),
      };
    },
  };
}
