/**
 * `npx -y pnpm@10 --filter @toolwaves/redis bench` (`--quick` for shorter windows,
 * `--workers=1,16` for some of the worker counts only): the lock side by side with
 * redis-semaphore ({@link ./lock-comparison.ts}); with `--all`, also the per-call overhead of
 * fleet locks in the Dispatcher ({@link ./fleet-overhead.ts}) and how the coordinator scales
 * ({@link ./fleet-scaling.ts}). Each starts its own `redis-server`.
 */
await import('./lock-comparison.js');
if (process.argv.includes('--all')) {
  await import('./fleet-overhead.js');
  await import('./fleet-scaling.js');
}
