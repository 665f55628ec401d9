import type { Planner } from '@toolwaves/planner';
import type { Container } from 'inversify';
import { BenchError } from '../bench-error.js';
import { PLANNER } from './planner-token.js';

/**
 * Every planner bound under {@link PLANNER}, in binding order.
 *
 * @throws {BenchError} `invalid_planners` when none is bound, when a binding is not a planner,
 * or when two share a name (figures are keyed by name).
 * @example resolvePlanners(benchContainer()).map((planner) => planner.name); // ['greedy', 'ordered', 'sequential']
 * @see benchContainer
 */
export function resolvePlanners(container: Container): Planner[] {
  const planners = container.isBound(PLANNER) ? container.getAll(PLANNER) : [];
  if (planners.length === 0) {
    throw new BenchError({
      code: 'invalid_planners',
      message: 'Expected at least one planner bound under `PLANNER`, got none',
    });
  }
  const names = new Set<string>();
  for (const planner of planners) {
    const candidate = planner as Partial<Planner> | null;
    if (typeof candidate?.name !== 'string' || typeof candidate.plan !== 'function') {
      throw new BenchError({
        code: 'invalid_planners',
        message: `Expected every binding of \`PLANNER\` to have a \`name\` and a \`plan\` function, got \`${String(candidate?.name ?? candidate)}\``,
      });
    }
    if (names.has(planner.name)) {
      throw new BenchError({
        code: 'invalid_planners',
        message: `Expected planner names to be unique, got \`${planner.name}\` twice`,
      });
    }
    names.add(planner.name);
  }
  return planners;
}
