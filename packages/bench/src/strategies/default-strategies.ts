import { checkOptions, type OptionRule, optionRules } from '@toolwaves/core/internal';
import {
  greedyPlanner,
  optimalPlanner,
  orderedPlanner,
  sequentialPlanner,
} from '@toolwaves/planner';
import { invalidOptions } from '../bench-error.js';
import {
  allAtOnceStrategy,
  consecutiveReadOnlyStrategy,
  globalRwLockStrategy,
  waitThenAllAtOnceStrategy,
} from './peer-strategies.js';
import { plannerStrategy } from './planner-strategy.js';
import type { Strategy } from './strategy.js';

/** Options of {@link defaultStrategies}. */
export interface DefaultStrategiesOptions {
  /** Work budget of one `optimal` plan, search nodes (default 20 000). */
  readonly optimalExpansions?: number;
  /** Time cap of one `optimal` plan, ms (default 10 000): a safety net. */
  readonly optimalBudgetMs?: number;
}

/** The executor's eager mode: the eager ready queue on the calls' own declarations. */
export function eagerStrategy(): Strategy {
  return {
    name: 'eager',
    description:
      'Each call starts once it has arrived and the earlier calls it conflicts with (or any earlier call, around one that is not concurrency-safe) have ended, under the cap.',
    execute: (turn) => ({
      kind: 'eager',
      nodes: turn.nodes,
      ...(turn.arrivalMs === undefined ? {} : { arrivalMs: turn.arrivalMs }),
      maxConcurrency: turn.maxConcurrency,
    }),
  };
}

/**
 * Every strategy the bench compares, listed once, in report order: the planners `greedy`,
 * `ordered`, `sequential`, `optimal` (on a work budget) and `optimal-clairvoyant` (headroom,
 * not achievable), `eager`, and the peers `all-at-once`, `wait-then-all-at-once`,
 * `consecutive-read-only`, `global-rw-lock` and `global-rw-lock-capped`.
 *
 * @example await runBench({ strategies: [...defaultStrategies(), myStrategy] });
 * @see Strategy
 * @throws {BenchError} `invalid_options` for an unknown or wrong option, naming it and its value.
 */
export function defaultStrategies(options: DefaultStrategiesOptions = {}): Strategy[] {
  checkOptions({
    subject: 'defaultStrategies',
    options,
    // The planner checks the values in its own terms (`budgetMs`, `maxExpansions`); these only
    // keep a value of the wrong type from reaching it under another name.
    rules: {
      optimalExpansions: optionRules.integerFrom(0),
      optimalBudgetMs: optionRules.numberFrom(0),
    } satisfies Record<keyof DefaultStrategiesOptions, OptionRule<unknown>>,
    error: invalidOptions,
  });
  const optimal = optimalPlanner({
    budgetMs: options.optimalBudgetMs ?? 10_000,
    maxExpansions: options.optimalExpansions ?? 20_000,
  });
  return [
    plannerStrategy(greedyPlanner()),
    plannerStrategy(orderedPlanner()),
    plannerStrategy(sequentialPlanner()),
    plannerStrategy(optimal),
    plannerStrategy(optimal, {
      name: 'optimal-clairvoyant',
      description: 'optimal, knowing durations — headroom, not achievable.',
      clairvoyant: true,
    }),
    eagerStrategy(),
    allAtOnceStrategy(),
    waitThenAllAtOnceStrategy(),
    consecutiveReadOnlyStrategy(),
    globalRwLockStrategy(),
    globalRwLockStrategy({ capped: true }),
  ];
}
