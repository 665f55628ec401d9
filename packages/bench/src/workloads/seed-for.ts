/** Options of {@link seedFor}. */
export interface SeedForOptions {
  /** The run's seed. */
  readonly seed: number;
  /** What the stream is for, e.g. a workload's name. */
  readonly stream: string;
  /** Which item of that stream, e.g. the batch's position. */
  readonly item: number;
}

/**
 * A 32-bit seed for one item of one named stream, mixed from the run's seed (FNV-1a over the
 * name, then the item): adding a workload or a batch never changes the batches of the others.
 *
 * @example
 * const random = mulberry32(seedFor({ seed: 1, stream: 'explore', item: 0 }));
 * @see mulberry32
 */
export function seedFor(options: SeedForOptions): number {
  let hash = 0x811c9dc5 ^ (options.seed >>> 0);
  const mix = (byte: number): void => {
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  };
  for (let i = 0; i < options.stream.length; i++) mix(options.stream.charCodeAt(i) & 0xff);
  for (let shift = 0; shift < 32; shift += 8) mix((options.item >>> shift) & 0xff);
  return hash >>> 0;
}
