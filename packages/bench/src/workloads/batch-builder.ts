import type { ToolCall } from '@toolwaves/core';
import type { SeededRandom } from './seeded-random.js';
import { TOOL_LATENCY } from './tool-latency.js';
import type { WorkloadBatch } from './workload.js';

/**
 * Collects the calls of one {@link WorkloadBatch}, giving each an id (`call_0`, `call_1`, …)
 * and a duration sampled from {@link TOOL_LATENCY}.
 *
 * @example
 * const builder = new BatchBuilder(random);
 * builder.add('read_file', { path: 'src/core/file0.ts' });
 * builder.build(); // { calls: [{ id: 'call_0', ... }], durationsMs: [41.3] }
 */
export class BatchBuilder {
  readonly #random: SeededRandom;
  readonly #calls: ToolCall[] = [];
  readonly #durations: number[] = [];

  constructor(random: SeededRandom) {
    this.#random = random;
  }

  /** Calls added so far. */
  get size(): number {
    return this.#calls.length;
  }

  /** Adds a call of tool `name`; its duration is drawn from that tool's latency model. */
  add(name: string, input: unknown): this {
    const latency = TOOL_LATENCY[name];
    if (latency === undefined) throw new RangeError(`No latency model for tool \`${name}\``);
    this.#calls.push({ id: `call_${this.#calls.length}`, name, input });
    this.#durations.push(this.#random.duration(latency));
    return this;
  }

  build(): WorkloadBatch {
    return { calls: [...this.#calls], durationsMs: [...this.#durations] };
  }
}
