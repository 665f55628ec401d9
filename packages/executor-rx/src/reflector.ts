import type { SoftErrorKind, SoftFailure } from './soft-failure.js';

/** A change for the next attempt: another tool, another input, or both. */
export interface RecoveryCorrection {
  /** Call this tool instead. */
  readonly toolName?: string;
  /** Use this input instead (when the property is present, even if `undefined`). */
  readonly input?: unknown;
}

/** What a {@link Reflector} concluded about a soft error. */
export interface Reflection {
  readonly failure: SoftFailure;
  /** Whether trying again may help. */
  readonly retryable: boolean;
  /** A corrected call to try next, if the reflector found one. */
  readonly correction?: RecoveryCorrection;
}

/** Analyses a soft error before the `RecoveryStrategy` decides (README: Recovery). */
export interface Reflector {
  reflect(failure: SoftFailure): Reflection | PromiseLike<Reflection>;
}

const RETRYABLE: ReadonlySet<SoftErrorKind> = new Set([
  'tool_error',
  'tool_reported',
  'timeout',
  'coordination_failed',
  'lease_lost',
]);

/**
 * The default {@link Reflector}: failures of the tool (`tool_error`, `tool_reported`, `timeout`)
 * and of the fleet (`coordination_failed`, `lease_lost`) are retryable; it never corrects.
 *
 * @example
 * ```ts
 * new Dispatcher({ registry, recovery: { strategy, reflector: basicReflector() } });
 * ```
 * @see exponentialBackoff which retries what this marks retryable.
 */
export function basicReflector(): Reflector {
  return { reflect: (failure) => ({ failure, retryable: RETRYABLE.has(failure.kind) }) };
}
