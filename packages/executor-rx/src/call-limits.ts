import type { Tool } from '@toolwaves/core';
import { describeValue } from '@toolwaves/core/internal';
import { closestName, type LimitWeights, type NamedLimits } from '@toolwaves/planner';
import { DispatchError } from './dispatch-error.js';

/** The named limits a dispatcher knows: its own, and those its coordinator caps fleet-wide. */
export interface LimitCatalog {
  /** The Dispatcher's `limits`, counted in this process; `undefined` when it has none. */
  readonly local: NamedLimits | undefined;
  /** The coordinator's limits (`Coordinator.limits`); `undefined` when it has none. */
  readonly fleet: LimitWeights | undefined;
}

/** How much of each known limit one call takes, split by where it is counted. */
export interface CallLimits {
  /** Weights in the Dispatcher's own limits; `undefined` when the call counts against none. */
  readonly local: LimitWeights | undefined;
  /** Weights in the coordinator's limits, sent with its fleet request; `undefined` for none. */
  readonly fleet: LimitWeights | undefined;
}

/** A call that counts against no limit. */
export const NO_LIMITS: CallLimits = { local: undefined, fleet: undefined };

/** Options of {@link callLimitsOf}. */
export interface CallLimitsOfOptions {
  readonly tool: Tool;
  /** The call's input, validated against the tool's schema. */
  readonly input: unknown;
  readonly catalog: LimitCatalog;
  /** The call's id, for the error. */
  readonly toolCallId: string;
}

/**
 * The named limits a call counts against: what its tool's `limits(input)` declares, then the
 * tool's `limitsIfConfigured` whose names the dispatcher knows. Fails closed, as the hard error
 * `invalid_config` naming the tool, the limit and the value: a declaration that throws or is not
 * an object of weights, a weight that is not an integer from 1 up, a name neither the Dispatcher
 * nor its coordinator has (with the name probably meant), or a weight above the capacity.
 */
export function callLimitsOf(options: CallLimitsOfOptions): CallLimits {
  const { tool, input, catalog } = options;
  const fail = (message: string, cause?: unknown): DispatchError =>
    new DispatchError({
      code: 'invalid_config',
      message: `Tool \`${tool.name}\` (call ${options.toolCallId}): ${message}`,
      toolCallId: options.toolCallId,
      toolName: tool.name,
      ...(cause === undefined ? {} : { cause }),
    });
  let declared: unknown;
  try {
    declared = tool.limits?.(input);
  } catch (error) {
    throw fail(`its \`limits\` threw: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (declared !== undefined && !isRecord(declared)) {
    throw fail(
      `expected \`limits\` to answer an object of limit names and weights, got ${describeValue(declared)}`,
    );
  }
  const optional = tool.limitsIfConfigured;
  if (declared === undefined && optional === undefined) return NO_LIMITS;
  let local: Record<string, number> | undefined;
  let fleet: Record<string, number> | undefined;
  const count = (name: string, weight: unknown, required: boolean): void => {
    const localCapacity = catalog.local?.capacity(name);
    const fleetCapacity = catalog.fleet?.[name];
    if (localCapacity === undefined && fleetCapacity === undefined) {
      if (!required) return;
      throw fail(unknownLimit(name, weight, catalog));
    }
    if (!Number.isSafeInteger(weight) || (weight as number) < 1) {
      throw fail(
        `expected its weight in limit \`${name}\` to be an integer from 1 and up, got ${describeValue(weight)}`,
      );
    }
    const capacity = Math.min(localCapacity ?? Infinity, fleetCapacity ?? Infinity);
    if ((weight as number) > capacity) {
      throw fail(
        `its weight ${weight as number} in limit \`${name}\` is more than the limit's capacity, ${capacity}: the call could never start`,
      );
    }
    if (localCapacity !== undefined) {
      local ??= {};
      local[name] = weight as number;
    }
    if (fleetCapacity !== undefined) {
      fleet ??= {};
      fleet[name] = weight as number;
    }
  };
  if (declared !== undefined) {
    for (const [name, weight] of Object.entries(declared)) count(name, weight, true);
  }
  if (optional !== undefined) {
    for (const [name, weight] of Object.entries(optional)) {
      if (declared === undefined || !Object.hasOwn(declared, name)) count(name, weight, false);
    }
  }
  return local === undefined && fleet === undefined ? NO_LIMITS : { local, fleet };
}

function unknownLimit(name: string, weight: unknown, catalog: LimitCatalog): string {
  const known = [...(catalog.local?.names() ?? []), ...Object.keys(catalog.fleet ?? {})];
  const meant = closestName(name, known);
  const listed =
    known.length === 0
      ? 'the Dispatcher has no `limits` and its coordinator none'
      : `the limits are ${known.map((k) => `\`${k}\``).join(', ')}`;
  return `it declares limit \`${name}\` (weight ${describeValue(weight)}), which neither the Dispatcher's \`limits\` nor its coordinator's have${meant === undefined ? '' : ` (did you mean \`${meant}\`?)`}; ${listed}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
