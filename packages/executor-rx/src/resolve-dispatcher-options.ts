import {
  type Coordinator,
  type Instrumentation,
  noCoordination,
  noInstrumentation,
  type ToolRegistry,
  type WhileStreaming,
} from '@toolwaves/core';
import {
  checkOptions,
  type OptionRule,
  optionRules,
  WHILE_STREAMING,
} from '@toolwaves/core/internal';
import {
  DEFAULT_MAX_CONCURRENCY,
  type EagerPriority,
  greedyPlanner,
  type Planner,
} from '@toolwaves/planner';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { LimitCatalog } from './call-limits.js';
import { invalidConfig } from './dispatch-error.js';
import type { PostHook, PreHook } from './dispatch-hooks.js';
import type { DispatcherOptions, DispatchMode, DispatchOptions } from './dispatcher-options.js';
import type { FailurePolicy } from './failure-policy.js';
import { limitCatalogOf } from './limit-catalog.js';
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
  /** A call that is not concurrency-safe holds the namespace fleet-wide. */
  readonly fleetExclusiveForUnsafe: boolean;
  readonly settleTimeoutMs: number;
  /** Tools of this dispatcher that outlived their answer, holding their keys and grants. */
  readonly outliving: OutlivingTools;
  /** Where batches and attempts are reported; `undefined` for `noInstrumentation`. */
  readonly instrumentation: Instrumentation | undefined;
  readonly onFailure: FailurePolicy;
  /** The named limits calls may count against; `undefined` when neither the Dispatcher nor its
   * coordinator has any (nothing is read of the tools' `limits` then). */
  readonly limits: LimitCatalog | undefined;
  /** Calls may carry the model's `wait_for_previous` (taken out of their input). */
  readonly modelOrdering: boolean;
  readonly whileStreaming: WhileStreaming;
}

/** Default of `settleTimeoutMs`. */
const DEFAULT_SETTLE_TIMEOUT_MS = 30_000;

/** One dispatch's options, checked, with the dispatcher's defaults filled in. */
export interface ResolvedDispatchOptions
  extends Pick<
      DispatcherConfig,
      'mode' | 'maxConcurrency' | 'priority' | 'onFailure' | 'modelOrdering' | 'whileStreaming'
    >,
    Pick<DispatchOptions, 'signal' | 'onEvent'> {}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const { withMethods } = optionRules;

/** One of these words, listed in the message as `'a', 'b' or 'c'`. */
function oneOf<T extends string>(values: readonly T[]): OptionRule<T> {
  const quoted = values.map((value) => `'${value}'`);
  const expected = `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
  return { expected, test: (value): value is T => values.includes(value as T) };
}

/** An array whose every element is a function (each checked by name: `hooks.pre[1]`). */
const FUNCTIONS = optionRules.arrayOf('an array of functions', optionRules.function);
const MODE = oneOf<DispatchMode>(['sequential', 'parallel', 'eager']);
const PRIORITY = oneOf<EagerPriority>(['model-order', 'longest-first']);
const ON_FAILURE = oneOf<FailurePolicy>(['continue', 'skip-dependents', 'stop']);
const MAX_CONCURRENCY = optionRules.integerFrom(1);

/** What each Dispatcher option must be; a dotted one is checked when its parent is given. */
const DISPATCHER_RULES: Readonly<Record<string, OptionRule<unknown>>> = {
  registry: withMethods('a ToolRegistry', ['get', 'names', 'toPlanNodes']),
  mode: MODE,
  maxConcurrency: MAX_CONCURRENCY,
  priority: PRIORITY,
  planner: withMethods('a Planner ({ name: string, plan(nodes, options) })', ['plan'], {
    named: true,
  }),
  hooks: {
    expected: 'an object with optional `pre` and `post` arrays of functions',
    test: isObject,
  },
  'hooks.pre': FUNCTIONS,
  'hooks.post': FUNCTIONS,
  recovery: { expected: 'an object ({ strategy, reflector? })', test: isObject },
  'recovery.strategy': withMethods(
    'a RecoveryStrategy ({ name: string, decide(reflection) })',
    ['decide'],
    { named: true },
  ),
  'recovery.reflector': withMethods('a Reflector ({ reflect(failure) })', ['reflect']),
  timeoutMs: optionRules.numberAbove(0),
  health: { expected: 'a ToolHealth', test: (value) => value instanceof ToolHealth },
  scheduler: withMethods('a SchedulerLike ({ now(), schedule(work, delay) })', ['now', 'schedule']),
  coordinator: withMethods('a Coordinator ({ acquire(request) })', ['acquire']),
  fleetExclusiveForUnsafe: optionRules.boolean,
  settleTimeoutMs: {
    expected: 'a number above 0 (or Infinity)',
    test: (value): value is number => typeof value === 'number' && value > 0,
  },
  instrumentation: withMethods('an Instrumentation ({ startBatch(info) })', ['startBatch']),
  onFailure: ON_FAILURE,
  limits: {
    ...optionRules.object,
    expected: 'an object of limit names and capacities (integers from 1 and up)',
  },
  modelOrdering: optionRules.boolean,
  whileStreaming: WHILE_STREAMING,
};

/** What each option of one dispatch must be. */
const DISPATCH_RULES: Readonly<Record<string, OptionRule<unknown>>> = {
  signal: { expected: 'an AbortSignal', test: (value) => value instanceof AbortSignal },
  mode: MODE,
  maxConcurrency: MAX_CONCURRENCY,
  priority: PRIORITY,
  onFailure: ON_FAILURE,
  whileStreaming: WHILE_STREAMING,
  onEvent: optionRules.function,
  modelOrdering: optionRules.boolean,
};

/** Options that must be given (when their parent is). */
const REQUIRED = ['registry', 'recovery.strategy'];

/** Checks the Dispatcher options and fills in defaults (`invalid_config` naming what is wrong). */
export function resolveDispatcherOptions(options: DispatcherOptions): DispatcherConfig {
  checkOptions({
    subject: 'the Dispatcher',
    options,
    rules: DISPATCHER_RULES,
    required: REQUIRED,
    error: invalidConfig,
  });
  const { registry, planner, hooks, recovery, health, scheduler, coordinator } = options;
  const { instrumentation } = options;
  const settleTimeoutMs = options.settleTimeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS;
  const clock = scheduler ?? asyncScheduler;
  return {
    registry,
    mode: options.mode ?? 'sequential',
    maxConcurrency: options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
    priority: options.priority ?? 'model-order',
    planner: planner ?? greedyPlanner(),
    preHooks: [...(hooks?.pre ?? [])],
    postHooks: [...(hooks?.post ?? [])],
    recovery:
      recovery === undefined
        ? undefined
        : { strategy: recovery.strategy, reflector: recovery.reflector ?? basicReflector() },
    timeoutMs: options.timeoutMs,
    health: health ?? new ToolHealth(),
    scheduler: clock,
    coordinator: coordinator === noCoordination ? undefined : coordinator,
    fleetExclusiveForUnsafe: options.fleetExclusiveForUnsafe ?? true,
    settleTimeoutMs,
    outliving: new OutlivingTools({ scheduler: clock, settleTimeoutMs }),
    instrumentation: instrumentation === noInstrumentation ? undefined : instrumentation,
    onFailure: options.onFailure ?? 'continue',
    limits: limitCatalogOf({ limits: options.limits, coordinator }),
    modelOrdering: options.modelOrdering === true,
    whileStreaming: options.whileStreaming ?? 'read-only',
  };
}

/** Checks one dispatch's options (`invalid_config`), with the dispatcher's as defaults. */
export function resolveDispatchOptions(
  options: DispatchOptions,
  config: DispatcherConfig,
): ResolvedDispatchOptions {
  checkOptions({ subject: 'a dispatch', options, rules: DISPATCH_RULES, error: invalidConfig });
  return {
    signal: options.signal,
    onEvent: options.onEvent,
    mode: options.mode ?? config.mode,
    maxConcurrency: options.maxConcurrency ?? config.maxConcurrency,
    priority: options.priority ?? config.priority,
    onFailure: options.onFailure ?? config.onFailure,
    modelOrdering: options.modelOrdering ?? config.modelOrdering,
    whileStreaming: options.whileStreaming ?? config.whileStreaming,
  };
}
