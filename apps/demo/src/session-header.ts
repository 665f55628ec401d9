import type { CliOptions } from './cli-options.js';

/**
 * The line under the demo's title that says how the session runs, true to the flags: one call at
 * a time (`--mode sequential`), streamed turns (each call starting once written), or whole turns
 * in the planner's waves (`--no-stream`).
 */
export function sessionHeader(
  options: Pick<CliOptions, 'mode' | 'stream' | 'planner' | 'maxConcurrency' | 'latency'> & {
    /** The scripted model's writing speed; `undefined` for a real model. */
    readonly tokensPerSecond: number | undefined;
  },
): string {
  const how =
    options.mode === 'sequential'
      ? `one call at a time in the model's order, ${options.stream ? 'each once written' : 'after the whole turn'} · mode: sequential`
      : options.stream
        ? 'streamed turns: each call starts once written and clear of the calls it conflicts with' +
          ` · mode: parallel (eager) · max concurrency: ${options.maxConcurrency}`
        : `whole turns in waves, planner: ${options.planner} · mode: parallel · max concurrency: ${options.maxConcurrency}`;
  const speed =
    options.tokensPerSecond === undefined ? '' : ` · model: ${options.tokensPerSecond} tokens/s`;
  return `${how}${speed} · latency ×${options.latency}`;
}
