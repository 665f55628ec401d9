import type { PlanNode } from '@toolwaves/planner';
import { TOOL_LATENCY } from './tool-latency.js';
import type { SeedModelWorkload } from './workload.js';

/** The arguments a real call of each seed-model tool would carry, for the token model. */
export const SEED_MODEL_ARGUMENTS: Readonly<Record<string, unknown>> = {
  Read: { path: 'src/core/file0.ts' },
  Edit: {
    path: 'src/core/file0.ts',
    old_string: 'const value0 = 0;',
    new_string: 'const value0 = 0 + 1;',
  },
  Grep: { pattern: 'TODO', path: 'src' },
  Stat: { path: 'src/core/file0.ts' },
  Shell: { command: 'pnpm test src/core' },
};

const WORKED_EXAMPLE: readonly { tool: string; parallelizable: boolean; key?: string }[] = [
  { tool: 'Read', parallelizable: true, key: 'a' },
  { tool: 'Read', parallelizable: true, key: 'b' },
  { tool: 'Edit', parallelizable: false },
  { tool: 'Grep', parallelizable: true },
  { tool: 'Read', parallelizable: true, key: 'a' },
  { tool: 'Stat', parallelizable: true },
];

/** The seed's worked example (`waves-spec.txt`); greedy plans `[[0, 1, 3, 5], [2], [4]]`. */
export const seedExampleWorkload = (): SeedModelWorkload => ({
  kind: 'seed-model',
  name: 'seed-example',
  description: "The seed's worked example: Read(a) Read(b) Edit(c) Grep Read(a) Stat.",
  sizes: [WORKED_EXAMPLE.length],
  batch: ({ random }) => ({
    nodes: WORKED_EXAMPLE.map(({ parallelizable, key }, index): PlanNode => {
      return key === undefined
        ? { index, parallelizable }
        : { index, parallelizable, resourceKey: key };
    }),
    tools: WORKED_EXAMPLE.map(({ tool }) => tool),
    durationsMs: WORKED_EXAMPLE.map(({ tool }) => random.duration(TOOL_LATENCY[tool]!)),
  }),
});

/** Random seed-model batches: 15 % `Shell`, 45 % `Read`/`Edit` on repeating keys, 40 % keyless. */
export const seedModelWorkload = (): SeedModelWorkload => ({
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
});
