/**
 * `npx -y pnpm@10 --filter @toolwaves/redis bench` (`--quick` for shorter runs): the per-call
 * overhead of fleet locks ({@link ./fleet-overhead.ts}), then how the coordinator scales and
 * what the fenced commit costs ({@link ./fleet-scaling.ts}). Each starts its own `redis-server`.
 */
await import('./fleet-overhead.js');
await import('./fleet-scaling.js');
