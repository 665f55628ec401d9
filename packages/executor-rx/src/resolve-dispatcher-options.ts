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

const DISPATCHER_KEYS = [
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
const DISPATCH_KEYS = ['signal', 'mode', 'maxConcurrency', 'priority', 'onFailure', 'onEvent'];

/**
 * Checks the {@link Dispatcher} options and fills in defaults.
 *
 * @throws DispatchError `invalid_config` naming the option and the value.
 */
export function resolveDispatcherOptions(options: DispatcherOptions): DispatcherConfig {
  checkObject('the Dispatcher options', options, DISPATCHER_KEYS);
  const { registry, planner, hooks, recovery, health, scheduler, coordinator } = options;
  const { instrumentation, timeoutMs } = options;
  need(
    'registry',
    'a ToolRegistry',
    registry,
    hasMethods(registry, ['get', 'names', 'toPlanNodes']),
  );
  if (planner !== undefined) {
    const ok = hasMethods(planner, ['plan']) && isName(planner.name);
    need('planner', 'a Planner ({ name: string, plan(nodes, options) })', planner, ok);
  }
  if (hooks !== undefined) {
    const ok = typeof hooks === 'object' && hooks !== null;
    need('hooks', 'an object with optional `pre` and `post` arrays of functions', hooks, ok);
  }
  if (recovery !== undefined) {
    need(
      'recovery',
      'an object ({ strategy, reflector? })',
      recovery,
      typeof recovery === 'object' && recovery !== null,
    );
    const { strategy, reflector } = recovery;
    const ok = hasMethods(strategy, ['decide']) && isName(strategy.name);
    need(
      'recovery.strategy',
      'a RecoveryStrategy ({ name: string, decide(reflection) })',
      strategy,
      ok,
    );
    if (reflector !== undefined) {
      need(
        'recovery.reflector',
        'a Reflector ({ reflect(failure) })',
        reflector,
        hasMethods(reflector, ['reflect']),
      );
    }
  }
  if (timeoutMs !== undefined) {
    const ok = typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0;
    need('timeoutMs', 'a finite number above 0', timeoutMs, ok);
  }
  if (health !== undefined) need('health', 'a ToolHealth', health, health instanceof ToolHealth);
  if (scheduler !== undefined) {
    const ok = hasMethods(scheduler, ['now', 'schedule']);
    need('scheduler', 'a SchedulerLike ({ now(), schedule(work, delay) })', scheduler, ok);
  }
  if (coordinator !== undefined) {
    need(
      'coordinator',
      'a Coordinator ({ acquire(request) })',
      coordinator,
      hasMethods(coordinator, ['acquire']),
    );
  }
  if (instrumentation !== undefined) {
    const ok = hasMethods(instrumentation, ['startBatch']);
    need('instrumentation', 'an Instrumentation ({ startBatch(info) })', instrumentation, ok);
  }
  const settleTimeoutMs = options.settleTimeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS;
  const settleOk =
    typeof settleTimeoutMs === 'number' && !Number.isNaN(settleTimeoutMs) && settleTimeoutMs > 0;
  need('settleTimeoutMs', 'a number above 0 (or Infinity)', options.settleTimeoutMs, settleOk);
  const clock = scheduler ?? asyncScheduler;
  return {
    registry,
    mode: MODE(options.mode) ?? 'sequential',
    maxConcurrency: checkMaxConcurrency(options.maxConcurrency) ?? DEFAULT_MAX_CONCURRENCY,
    priority: PRIORITY(options.priority) ?? 'model-order',
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
    onFailure: FAILURE_POLICY(options.onFailure) ?? 'continue',
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
  if (signal !== undefined) need('signal', 'an AbortSignal', signal, signal instanceof AbortSignal);
  if (onEvent !== undefined) need('onEvent', 'a function', onEvent, typeof onEvent === 'function');
  return {
    signal,
    onEvent,
    mode: MODE(options.mode) ?? config.mode,
    maxConcurrency: checkMaxConcurrency(options.maxConcurrency) ?? config.maxConcurrency,
    priority: PRIORITY(options.priority) ?? config.priority,
    onFailure: FAILURE_POLICY(options.onFailure) ?? config.onFailure,
  };
}

/** A check that an option, when given, is one of `values` (the words name them for the message). */
function oneOf<T extends string>(name: string, values: readonly T[], words: string) {
  return (value: unknown): T | undefined => {
    if (value !== undefined) need(name, words, value, values.includes(value as T));
    return value as T | undefined;
  };
}

const MODE = oneOf<DispatchMode>(
  'mode',
  ['sequential', 'parallel', 'eager'],
  "'sequential', 'parallel' or 'eager'",
);
const PRIORITY = oneOf<EagerPriority>(
  'priority',
  ['model-order', 'longest-first'],
  "'model-order' or 'longest-first'",
);
const FAILURE_POLICY = oneOf<FailurePolicy>(
  'onFailure',
  ['continue', 'skip-dependents', 'stop'],
  "'continue', 'skip-dependents' or 'stop'",
);

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

function checkMaxConcurrency(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const ok = typeof value === 'number' && Number.isInteger(value) && value >= 1;
  need('maxConcurrency', 'an integer from 1 and up', value, ok);
  return value as number;
}

function checkHooks<H>(name: string, hooks: readonly H[] | undefined): readonly H[] {
  if (hooks === undefined) return [];
  need(name, 'an array of functions', hooks, Array.isArray(hooks));
  hooks.forEach((hook: unknown, i) => {
    need(`${name}[${i}]`, 'a function', hook, typeof hook === 'function');
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

/** Throws `invalid_config` naming `option` and the value unless `ok`. */
function need(option: string, expected: string, value: unknown, ok: boolean): void {
  if (ok) return;
  throw new DispatchError({
    code: 'invalid_config',
    message: optionMessage({ name: option, expected, value }),
  });
}
