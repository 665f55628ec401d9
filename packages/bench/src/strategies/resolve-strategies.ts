import type { Container } from 'inversify';
import { BenchError } from '../bench-error.js';
import { plannerStrategy } from './planner-strategy.js';
import { resolvePlanners } from './resolve-planners.js';
import type { Strategy } from './strategy.js';
import { STRATEGY } from './strategy-token.js';

/**
 * Every strategy to compare: each planner bound under `PLANNER` as a
 * {@link plannerStrategy}, then everything bound under {@link STRATEGY}, in binding order.
 *
 * @throws {BenchError} `invalid_planners` when no planner is bound, when a binding is not a
 * planner or a strategy, or when two share a name (figures are keyed by name).
 * @example resolveStrategies(benchContainer()).map((strategy) => strategy.name);
 * @see benchContainer
 */
export function resolveStrategies(container: Container): Strategy[] {
  const strategies = [
    ...resolvePlanners(container).map((planner) => plannerStrategy(planner)),
    ...(container.isBound(STRATEGY) ? container.getAll(STRATEGY) : []),
  ];
  const names = new Set<string>();
  for (const strategy of strategies) {
    const candidate = strategy as Partial<Strategy> | null;
    if (typeof candidate?.name !== 'string' || typeof candidate.execute !== 'function') {
      throw new BenchError({
        code: 'invalid_planners',
        message: `Expected every binding of \`STRATEGY\` to have a \`name\` and an \`execute\` function, got \`${String(candidate?.name ?? candidate)}\``,
      });
    }
    if (names.has(strategy.name)) {
      throw new BenchError({
        code: 'invalid_planners',
        message: `Expected strategy names to be unique, got \`${strategy.name}\` twice`,
      });
    }
    names.add(strategy.name);
  }
  return strategies;
}
