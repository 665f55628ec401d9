export { callSource, type ToolCallSource } from './call-source.js';
export { canonicalJson } from './canonical-json.js';
export {
  DispatchError,
  type DispatchErrorCode,
  type DispatchErrorOptions,
} from './dispatch-error.js';
export type {
  BatchEndEvent,
  BatchStartEvent,
  CallEndEvent,
  CallOutcome,
  CallSkippedEvent,
  CallStartEvent,
  DispatchEvent,
  SettleTimeoutEvent,
  WaveEndEvent,
  WaveStartEvent,
} from './dispatch-event.js';
export type {
  DispatchHooks,
  PostHook,
  PostHookContext,
  PreHook,
  PreHookContext,
  PreHookDecision,
} from './dispatch-hooks.js';
export { Dispatcher } from './dispatcher.js';
export type { DispatcherOptions, DispatchMode, DispatchOptions } from './dispatcher-options.js';
export { type ExponentialBackoffOptions, exponentialBackoff } from './exponential-backoff.js';
export type { FailurePolicy } from './failure-policy.js';
export { type LoopDetectionOptions, loopDetectionHook } from './loop-detection-hook.js';
export type { Turn } from './open-turn.js';
export type { ToolExecute } from './prepared-call.js';
export {
  MAX_RETRIES,
  type RecoveryDecision,
  type RecoveryOptions,
  type RecoveryStrategy,
} from './recovery-strategy.js';
export {
  basicReflector,
  type RecoveryCorrection,
  type Reflection,
  type Reflector,
} from './reflector.js';
export {
  type EagerCall,
  type EagerStart,
  type ScheduleEagerOptions,
  scheduleEager,
} from './schedule-eager.js';
export type { SoftErrorKind, SoftFailure } from './soft-failure.js';
export {
  ToolHealth,
  type ToolHealthOptions,
  type ToolHealthSample,
  type ToolHealthStats,
} from './tool-health.js';
