import type { PlanNode } from '@toolwaves/planner';
import { TOOL_LATENCY } from './tool-latency.js';
import type { SeedModelWorkload } from './workload.js';

/**
 * The seed's worked example (`waves-spec.txt`), in the seed model: `Read(a)`, `Read(b)`,
 * `Edit(c)` (not concurrency-safe), `Grep(*)`, `Read(a)`, `Stat(*)`. Greedy plans it as
 * `[[0, 1, 3, 5], [2], [4]]`. Each batch samples new durations for the same six calls.
 *
 * @see seedModelWorkload
 */
export function seedExampleWorkload(): SeedModelWorkload {
  const calls: readonly { tool: string; parallelizable: boolean; key?: string }[] = [
    { tool: 'Read', parallelizable: true, key: 'a' },
    { tool: 'Read', parallelizable: true, key: 'b' },
    { tool: 'Edit', parallelizable: false },
    { tool: 'Grep', parallelizable: true },
    { tool: 'Read', parallelizable: true, key: 'a' },
    { tool: 'Stat', parallelizable: true },
  ];
  return {
    kind: 'seed-model',
    name: 'seed-example',
    description: "The seed's worked example: Read(a) Read(b) Edit(c) Grep Read(a) Stat.",
    sizes: [calls.length],
    batch({ random }) {
      return {
        nodes: calls.map(
          ({ parallelizable, key }, index): PlanNode => ({
            index,
            parallelizable,
            ...(key === undefined ? {} : { resourceKey: key }),
          }),
        ),
        tools: calls.map(({ tool }) => tool),
        durationsMs: calls.map(({ tool }) => random.duration(TOOL_LATENCY[tool]!)),
      };
    },
  };
}
