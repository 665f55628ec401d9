import { checkOption, checkOptions, type OptionRule, optionRules } from '@toolwaves/core/internal';
import type { Plan, PlanNode, Planner } from '@toolwaves/planner';
import { invalidOptions } from '../bench-error.js';
import { type Strategy, streamEnd } from './strategy.js';

const PLANNER = optionRules.withMethods(
  'a Planner ({ name: string, plan(nodes, options) })',
  ['plan'],
  {
    named: true,
  },
);

const RULES = {
  name: optionRules.nonEmptyString,
  description: optionRules.string,
  clairvoyant: optionRules.boolean,
} satisfies Record<keyof PlannerStrategyOptions, OptionRule<unknown>>;

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
 * @throws {BenchError} `invalid_options` for a `planner` that is not one, or an unknown or wrong
 *   option, naming it and its value.
 */
export function plannerStrategy(planner: Planner, options: PlannerStrategyOptions = {}): Strategy {
  checkOption({ name: 'planner', value: planner, rule: PLANNER, error: invalidOptions });
  checkOptions({ subject: 'plannerStrategy', options, rules: RULES, error: invalidOptions });
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
