import type { Access } from '@toolwaves/planner';
import type { Declarations } from './read-declarations.js';

/** What a call holds fleet-wide while its tool runs (the fields of a `CoordinationRequest`). */
export interface FleetClaim {
  /** The accesses it holds; empty when it holds none or the whole namespace. */
  readonly access: readonly Access[];
  /** It holds the whole namespace: no other call of the fleet runs meanwhile. */
  readonly exclusive: boolean;
}

/** Options of {@link fleetClaimOf}. */
export interface FleetClaimOptions {
  /**
   * A call that is not concurrency-safe holds the whole namespace (`true`, the default: it runs
   * alone in its process, so it runs alone in the fleet). `false` gives that up: such a call holds
   * only the accesses it declares, each as a write, and nothing when it declares none (its
   * declarations must then be read with `accessesWhenUnsafe`).
   */
  readonly exclusiveForUnsafe?: boolean | undefined;
}

const EXCLUSIVE: FleetClaim = { access: [], exclusive: true };
const NOTHING: FleetClaim = { access: [], exclusive: false };

/**
 * What a call holds fleet-wide, from the same reading of its declarations as its plan node:
 * - declarations that could not be read: the whole namespace (fails closed, always);
 * - concurrency-safe: its declared accesses, as declared (nothing when it declares none);
 * - not concurrency-safe: the whole namespace, as it runs alone in its own process; with
 *   `exclusiveForUnsafe: false`, its declared accesses as writes (nothing when it declares none).
 *
 * @example
 * ```ts
 * fleetClaimOf(readDeclarations(runTests, input)); // { access: [], exclusive: true }
 * ```
 * @see readDeclarations
 */
export function fleetClaimOf(
  declarations: Declarations,
  options: FleetClaimOptions = {},
): FleetClaim {
  const { safe, accesses, unreadable } = declarations;
  if (unreadable || (!safe && options.exclusiveForUnsafe !== false)) return EXCLUSIVE;
  if (accesses.length === 0) return NOTHING;
  // Copied as `{ key, mode }`: a coordinator sends them on, and nothing else the tool put in an
  // entry goes with them. An unsafe call's accesses are writes: nothing touching them runs beside it.
  const access = accesses.map(({ key, mode }): Access => ({ key, mode: safe ? mode : 'write' }));
  return { access, exclusive: false };
}
