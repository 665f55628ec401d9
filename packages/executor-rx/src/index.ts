// The public surface of @toolwaves/executor-rx (the helpers' option types are their parameters;
// the wave and settle-timeout events are members of `DispatchEvent`).
export type { ToolCallSource } from './call-source.js';
export { DispatchError, type DispatchErrorCode } from './dispatch-error.js';
export type {
  BatchEndEvent,
  BatchStartEvent,
  CallEndEvent,
  CallOutcome,
  CallSkippedEvent,
  CallStartEvent,
  DispatchEvent,
} from './dispatch-event.js';
export type {
  PostHook,
  PostHookContext,
  PreHook,
  PreHookContext,
  PreHookDecision,
} from './dispatch-hooks.js';
export { Dispatcher } from './dispatcher.js';
export type { DispatcherOptions, DispatchMode, DispatchOptions } from './dispatcher-options.js';
export { exponentialBackoff } from './exponential-backoff.js';
export type { FailurePolicy } from './failure-policy.js';
export { loopDetectionHook } from './loop-detection-hook.js';
export type { Turn } from './open-turn.js';
export type { ToolExecute } from './prepared-call.js';
export {
  MAX_RETRIES,
  type RecoveryDecision,
  type RecoveryStrategy,
} from './recovery-strategy.js';
export {
  basicReflector,
  type RecoveryCorrection,
  type Reflection,
  type Reflector,
} from './reflector.js';
export type { SoftErrorKind, SoftFailure } from './soft-failure.js';
export { ToolHealth, type ToolHealthStats } from './tool-health.js';
