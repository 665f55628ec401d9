import type { PlanNode } from '@toolwaves/planner';
import { TOOL_LATENCY } from './tool-latency.js';
import type { SeedModelWorkload } from './workload.js';

/**
 * Random batches in the seed model: 15 % `Shell` calls (not concurrency-safe), 45 % `Read` or
 * `Edit` with one exclusive flat key out of `max(2, size / 4)` (so keys repeat), 40 % keyless
 * `Grep` or `Stat`. Used for the check that greedy's wave count is minimal
 * ({@link minimalWaveCount}) and for makespan gaps in the model the seed was written for.
 *
 * @see seedExampleWorkload
 */
export function seedModelWorkload(): SeedModelWorkload {
  return {
    kind: 'seed-model',
    name: 'seed-model',
    description: 'Seed model: unsafe calls, exclusive flat keys that repeat, keyless calls.',
    batch({ random, size }) {
      const keys = Math.max(2, Math.floor(size / 4));
      const nodes: PlanNode[] = [];
      const tools: string[] = [];
      const durationsMs: number[] = [];
      const add = (tool: string, node: PlanNode): void => {
        nodes.push(node);
        tools.push(tool);
        durationsMs.push(random.duration(TOOL_LATENCY[tool]!));
      };
      for (let index = 0; index < size; index++) {
        const kind = random.weighted({ shell: 15, keyed: 45, keyless: 40 });
        if (kind === 'shell') add('Shell', { index, parallelizable: false });
        else if (kind === 'keyed') {
          const tool = random.chance(0.6) ? 'Read' : 'Edit';
          add(tool, { index, parallelizable: true, resourceKey: `file:${random.int(keys)}` });
        } else add(random.chance(0.5) ? 'Grep' : 'Stat', { index, parallelizable: true });
      }
      return { nodes, tools, durationsMs };
    },
  };
}
