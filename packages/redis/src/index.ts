export type { RedisClientLike } from './redis-client-like.js';
export { type RedisCoordinator, redisCoordinator } from './redis-coordinator.js';
export {
  RedisCoordinatorError,
  type RedisCoordinatorErrorCode,
} from './redis-coordinator-error.js';
export type { RedisCoordinatorOptions } from './redis-coordinator-options.js';
