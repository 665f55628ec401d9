import {
  type Coordinator,
  type Instrumentation,
  noCoordination,
  noInstrumentation,
  type ToolRegistry,
} from '@toolwaves/core';
import { optionMessage } from '@toolwaves/core/internal';
import {
  DEFAULT_MAX_CONCURRENCY,
  type EagerPriority,
  greedyPlanner,
  type Planner,
} from '@toolwaves/planner';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { DispatchError } from './dispatch-error.js';
import type { DispatchEvent } from './dispatch-event.js';
import type { PostHook, PreHook } from './dispatch-hooks.js';
import type { DispatcherOptions, DispatchMode, DispatchOptions } from './dispatcher-options.js';
import type { FailurePolicy } from './failure-policy.js';
import { OutlivingTools } from './outliving-tools.js';
import type { RecoveryStrategy } from './recovery-strategy.js';
import { basicReflector, type Reflector } from './reflector.js';
import { ToolHealth } from './tool-health.js';

/** A dispatcher's options, checked and with defaults filled in. */
export interface DispatcherConfig {
  readonly registry: ToolRegistry;
  readonly mode: DispatchMode;
  readonly maxConcurrency: number;
  readonly priority: EagerPriority;
  readonly planner: Planner;
  readonly preHooks: readonly PreHook[];
  readonly postHooks: readonly PostHook[];
  readonly recovery:
    | { readonly reflector: Reflector; readonly strategy: RecoveryStrategy }
    | undefined;
  readonly timeoutMs: number | undefined;
  readonly health: ToolHealth;
  readonly scheduler: SchedulerLike;
  /** The fleet coordinator; `undefined` for `noCoordination` (nothing to ask). */
  readonly coordinator: Coordinator | undefined;
  readonly settleTimeoutMs: number;
  /** Tools of this dispatcher that outlived their answer, holding their keys and grants. */
  readonly outliving: OutlivingTools;
  /** Where batches and attempts are reported; `undefined` for `noInstrumentation`. */
  readonly instrumentation: Instrumentation | undefined;
  readonly onFailure: FailurePolicy;
}

/** Default of `settleTimeoutMs`. */
export const DEFAULT_SETTLE_TIMEOUT_MS = 30_000;

/** One dispatch's options, checked, with the dispatcher's defaults filled in. */
export interface ResolvedDispatchOptions {
  readonly signal: AbortSignal | undefined;
  readonly mode: DispatchMode;
  readonly maxConcurrency: number;
  readonly priority: EagerPriority;
  readonly onFailure: FailurePolicy;
  readonly onEvent: ((event: DispatchEvent) => void) | undefined;
}

const DISPATCHER_KEYS: readonly string[] = [
  'registry',
  'mode',
  'maxConcurrency',
  'priority',
  'planner',
  'hooks',
  'recovery',
  'timeoutMs',
  'health',
  'scheduler',
  'coordinator',
  'settleTimeoutMs',
  'instrumentation',
  'onFailure',
];
const DISPATCH_KEYS: readonly string[] = [
  'signal',
  'mode',
  'maxConcurrency',
  'priority',
  'onFailure',
  'onEvent',
];

/**
 * Checks the {@link Dispatcher} options and fills in defaults.
 *
 * @throws DispatchError `invalid_config` naming the option and the value.
 */
export function resolveDispatcherOptions(options: DispatcherOptions): DispatcherConfig {
  checkObject('the Dispatcher options', options, DISPATCHER_KEYS);
  const { registry, planner, hooks, recovery, health, scheduler, coordinator, instrumentation } =
    options;
  if (!hasMethods(registry, ['get', 'names', 'toPlanNodes'])) {
    fail('registry', 'a ToolRegistry', registry);
  }
  if (planner !== undefined && !(hasMethods(planner, ['plan']) && isName(planner.name))) {
    fail('planner', 'a Planner ({ name: string, plan(nodes, options) })', planner);
  }
  if (hooks !== undefined && (typeof hooks !== 'object' || hooks === null)) {
    fail('hooks', 'an object with optional `pre` and `post` arrays of functions', hooks);
  }
  if (recovery !== undefined) {
    if (typeof recovery !== 'object' || recovery === null) {
      fail('recovery', 'an object ({ strategy, reflector? })', recovery);
    }
    if (!(hasMethods(recovery.strategy, ['decide']) && isName(recovery.strategy.name))) {
      fail(
        'recovery.strategy',
        'a RecoveryStrategy ({ name: string, decide(reflection) })',
        recovery.strategy,
      );
    }
    if (recovery.reflector !== undefined && !hasMethods(recovery.reflector, ['reflect'])) {
      fail('recovery.reflector', 'a Reflector ({ reflect(failure) })', recovery.reflector);
    }
  }
  const timeoutMs = options.timeoutMs;
  if (
    timeoutMs !== undefined &&
    (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0)
  ) {
    fail('timeoutMs', 'a finite number above 0', timeoutMs);
  }
  if (health !== undefined && !(health instanceof ToolHealth)) {
    fail('health', 'a ToolHealth', health);
  }
  if (scheduler !== undefined && !hasMethods(scheduler, ['now', 'schedule'])) {
    fail('scheduler', 'a SchedulerLike ({ now(), schedule(work, delay) })', scheduler);
  }
  if (coordinator !== undefined && !hasMethods(coordinator, ['acquire'])) {
    fail('coordinator', 'a Coordinator ({ acquire(request) })', coordinator);
  }
  if (instrumentation !== undefined && !hasMethods(instrumentation, ['startBatch'])) {
    fail('instrumentation', 'an Instrumentation ({ startBatch(info) })', instrumentation);
  }
  const settleTimeoutMs = options.settleTimeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS;
  if (
    typeof settleTimeoutMs !== 'number' ||
    Number.isNaN(settleTimeoutMs) ||
    settleTimeoutMs <= 0
  ) {
    fail('settleTimeoutMs', 'a number above 0 (or Infinity)', options.settleTimeoutMs);
  }
  const clock = scheduler ?? asyncScheduler;
  return {
    registry,
    mode: checkMode(options.mode) ?? 'sequential',
    maxConcurrency: checkMaxConcurrency(options.maxConcurrency) ?? DEFAULT_MAX_CONCURRENCY,
    priority: checkPriority(options.priority) ?? 'model-order',
    planner: planner ?? greedyPlanner(),
    preHooks: checkHooks('hooks.pre', hooks?.pre),
    postHooks: checkHooks('hooks.post', hooks?.post),
    recovery:
      recovery === undefined
        ? undefined
        : { strategy: recovery.strategy, reflector: recovery.reflector ?? basicReflector() },
    timeoutMs,
    health: health ?? new ToolHealth(),
    scheduler: clock,
    coordinator: coordinator === noCoordination ? undefined : coordinator,
    settleTimeoutMs,
    outliving: new OutlivingTools({ scheduler: clock, settleTimeoutMs }),
    instrumentation: instrumentation === noInstrumentation ? undefined : instrumentation,
    onFailure: checkFailurePolicy(options.onFailure) ?? 'continue',
  };
}

/**
 * Checks one dispatch's options and fills in the dispatcher's defaults.
 *
 * @throws DispatchError `invalid_config` naming the option and the value.
 */
export function resolveDispatchOptions(
  options: DispatchOptions,
  config: DispatcherConfig,
): ResolvedDispatchOptions {
  checkObject('the dispatch options', options, DISPATCH_KEYS);
  const { signal, onEvent } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    fail('signal', 'an AbortSignal', signal);
  }
  if (onEvent !== undefined && typeof onEvent !== 'function') {
    fail('onEvent', 'a function', onEvent);
  }
  return {
    signal,
    onEvent,
    mode: checkMode(options.mode) ?? config.mode,
    maxConcurrency: checkMaxConcurrency(options.maxConcurrency) ?? config.maxConcurrency,
    priority: checkPriority(options.priority) ?? config.priority,
    onFailure: checkFailurePolicy(options.onFailure) ?? config.onFailure,
  };
}

function checkObject(what: string, value: unknown, known: readonly string[]): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new DispatchError({
      code: 'invalid_config',
      message: optionMessage({ name: what, subject: what, expected: 'an object', value }),
    });
  }
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      throw new DispatchError({
        code: 'invalid_config',
        message: `Unknown option \`${key}\` in ${what}; the options are ${known.map((k) => `\`${k}\``).join(', ')}`,
      });
    }
  }
}

function checkMode(mode: unknown): DispatchMode | undefined {
  if (mode === undefined || mode === 'sequential' || mode === 'parallel' || mode === 'eager') {
    return mode;
  }
  return fail('mode', "'sequential', 'parallel' or 'eager'", mode);
}

function checkPriority(priority: unknown): EagerPriority | undefined {
  if (priority === undefined || priority === 'model-order' || priority === 'longest-first') {
    return priority;
  }
  return fail('priority', "'model-order' or 'longest-first'", priority);
}

function checkFailurePolicy(policy: unknown): FailurePolicy | undefined {
  if (
    policy === undefined ||
    policy === 'continue' ||
    policy === 'skip-dependents' ||
    policy === 'stop'
  ) {
    return policy;
  }
  return fail('onFailure', "'continue', 'skip-dependents' or 'stop'", policy);
}

function checkMaxConcurrency(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
  return fail('maxConcurrency', 'an integer from 1 and up', value);
}

function checkHooks<H>(name: string, hooks: readonly H[] | undefined): readonly H[] {
  if (hooks === undefined) return [];
  if (!Array.isArray(hooks)) return fail(name, 'an array of functions', hooks);
  hooks.forEach((hook: unknown, i) => {
    if (typeof hook !== 'function') fail(`${name}[${i}]`, 'a function', hook);
  });
  return [...hooks];
}

function hasMethods(value: unknown, methods: readonly string[]): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function')
  );
}

function isName(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

function fail(option: string, expected: string, value: unknown): never {
  throw new DispatchError({
    code: 'invalid_config',
    message: optionMessage({ name: option, expected, value }),
  });
}
