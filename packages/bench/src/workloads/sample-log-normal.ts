/** Options of {@link sampleLogNormal}. */
export interface SampleLogNormalOptions {
  /** A source of uniform numbers in `[0, 1)`, e.g. {@link mulberry32}. */
  readonly random: () => number;
  /** The median of the distribution, in ms. */
  readonly medianMs: number;
  /** The standard deviation of the logarithm: 0.5 gives a p99 of about 3.2 × the median, 0.8 about 6.4 ×. */
  readonly sigma: number;
}

/**
 * One duration drawn from a log-normal distribution: most calls close to the median, a long
 * tail of slow ones, never negative — the shape of measured tool latencies. Rounded to 0.1 ms.
 *
 * @example
 * sampleLogNormal({ random: mulberry32(1), medianMs: 40, sigma: 0.6 }); // e.g. 37.2
 * @see TOOL_LATENCY
 */
export function sampleLogNormal(options: SampleLogNormalOptions): number {
  // Box–Muller: two uniforms give one standard normal; 1 - u keeps the logarithm finite.
  const u = 1 - options.random();
  const v = options.random();
  const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.round(options.medianMs * Math.exp(options.sigma * normal) * 10) / 10;
}
