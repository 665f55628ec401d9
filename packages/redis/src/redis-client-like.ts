/**
 * The part of a node-redis client (`createClient()` from `redis` or `@redis/client`, v5 and up)
 * that the coordinator uses. Any connected node-redis client fits.
 */
export interface RedisClientLike {
  readonly isReady: boolean;
  sendCommand(args: readonly string[], options?: { timeout?: number }): Promise<unknown>;
  duplicate(): RedisClientLike;
  connect(): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
  subscribe(
    channels: string | string[],
    listener: (message: string, channel: string) => unknown,
  ): Promise<void>;
  on(event: 'error' | 'ready', listener: (value: unknown) => void): unknown;
  off(event: 'error' | 'ready', listener: (value: unknown) => void): unknown;
}
