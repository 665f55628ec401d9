import type { Coordinator } from '@toolwaves/core';
import { checkOption, optionRules } from '@toolwaves/core/internal';
import { NamedLimits } from '@toolwaves/planner';
import type { LimitCatalog } from './call-limits.js';
import { invalidConfig } from './dispatch-error.js';

/** Options of {@link limitCatalogOf}. */
export interface LimitCatalogOfOptions {
  /** The Dispatcher's `limits` option (already checked to be an object, when given). */
  readonly limits: Readonly<Record<string, number>> | undefined;
  readonly coordinator: Coordinator | undefined;
}

const CAPACITY = optionRules.integerFrom(1);

/**
 * The named limits of a Dispatcher: its own `limits` as one {@link NamedLimits} shared by all its
 * batches, and the coordinator's (`Coordinator.limits`); `undefined` when there are none.
 * @throws DispatchError `invalid_config` naming a capacity that is not an integer from 1 up.
 */
export function limitCatalogOf(options: LimitCatalogOfOptions): LimitCatalog | undefined {
  const { limits, coordinator } = options;
  for (const [name, capacity] of Object.entries(limits ?? {})) {
    checkOption({ name: `limits.${name}`, value: capacity, rule: CAPACITY, error: invalidConfig });
  }
  const fleet = coordinator?.limits;
  const local =
    limits === undefined || Object.keys(limits).length === 0 ? undefined : new NamedLimits(limits);
  const hasFleet = fleet !== undefined && Object.keys(fleet).length > 0;
  if (local === undefined && !hasFleet) return undefined;
  return { local, fleet: hasFleet ? fleet : undefined };
}
