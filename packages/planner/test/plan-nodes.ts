import type { PlanNode } from '@toolwaves/planner';

/** A concurrency-safe node, with an exclusive key when one is given (seed model). */
export const safe = (index: number, resourceKey?: string): PlanNode => ({
  index,
  parallelizable: true,
  ...(resourceKey === undefined ? {} : { resourceKey }),
});

/** A node that is not concurrency-safe. */
export const unsafe = (index: number): PlanNode => ({ index, parallelizable: false });

/** A safe node that reads `key`. */
export const reads = (index: number, key: string): PlanNode => ({
  index,
  parallelizable: true,
  access: [{ key, mode: 'read' }],
});

/** A safe node that writes `key`. */
export const writes = (index: number, key: string): PlanNode => ({
  index,
  parallelizable: true,
  access: [{ key, mode: 'write' }],
});

/** `waves-spec.txt`, worked example: Read(a) Read(b) Edit(c) Grep(*) Read(a) Stat(*). */
export const workedExample: readonly PlanNode[] = [
  safe(0, 'a'),
  safe(1, 'b'),
  unsafe(2),
  safe(3),
  safe(4, 'a'),
  safe(5),
];
