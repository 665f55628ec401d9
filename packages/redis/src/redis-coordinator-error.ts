/** What went wrong, for {@link RedisCoordinatorError}. */
export type RedisCoordinatorErrorCode =
  /** An option of `redisCoordinator` is wrong (thrown when the coordinator is made). */
  | 'invalid_options'
  /** A request's access is malformed (a key that is not a string, a mode other than read/write). */
  | 'invalid_request'
  /** Redis could not be reached or answered with an error: the call did not run. */
  | 'unavailable'
  /** The request's `signal` was aborted while it waited: it left the queue and did not run. */
  | 'cancelled'
  /** A granted lease could not be renewed in time (a grant's `lost` reason). */
  | 'lease_lost'
  /** The coordinator was closed. */
  | 'closed';

/**
 * The one error class of `@toolwaves/redis`. `acquire` rejects with it (`unavailable`,
 * `cancelled`, `closed`, `invalid_request`), a grant's `lost` signal is aborted with it
 * (`lease_lost`), and `redisCoordinator` throws it for a wrong option (`invalid_options`). The
 * Dispatcher turns the rejections and the lost leases into soft errors that carry the message.
 *
 * @example
 * ```ts
 * try {
 *   await coordinator.acquire(request);
 * } catch (error) {
 *   if (error instanceof RedisCoordinatorError && error.code === 'unavailable') console.error(error.message);
 * }
 * ```
 * @see redisCoordinator
 */
export class RedisCoordinatorError extends Error {
  override readonly name = 'RedisCoordinatorError';
  readonly code: RedisCoordinatorErrorCode;

  constructor(options: { code: RedisCoordinatorErrorCode; message: string; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }
}
