import type { Access, PlanNode } from '@toolwaves/planner';
import fc from 'fast-check';

/** Seed-model keys: plain names, none an ancestor of another. */
export const flatKeys = ['a', 'b', 'c', 'file:x.rs'] as const;

/** Hierarchical keys, with the edge cases of the overlap rule (trailing `/`, `fs:/ab`, roots). */
export const treeKeys = [
  'fs:/a',
  'fs:/a/',
  'fs:/a/b',
  'fs:/a/b/c.txt',
  'fs:/ab',
  'fs:/b',
  'fs:/',
  'fs:',
  'db:users',
] as const;

interface RawNode {
  readonly parallelizable: boolean;
  readonly resourceKey: string | null;
  readonly access: readonly Access[] | null;
  readonly estimateMs: number | null;
}

const toNodes = (raw: readonly RawNode[]): PlanNode[] =>
  raw.map((node, index) => ({
    index,
    parallelizable: node.parallelizable,
    ...(node.resourceKey === null ? {} : { resourceKey: node.resourceKey }),
    ...(node.access === null ? {} : { access: node.access }),
    ...(node.estimateMs === null ? {} : { estimateMs: node.estimateMs }),
  }));

/** About one call in five is not concurrency-safe. */
const parallelizable = fc.integer({ min: 0, max: 4 }).map((roll) => roll !== 0);
const estimate = fc.option(fc.integer({ min: 0, max: 20 }), { nil: null });

const access = (keys: readonly string[]) =>
  fc.record({
    key: fc.constantFrom(...keys),
    mode: fc.constantFrom('read' as const, 'write' as const),
  });

/** Seed-model batches: safe or not, an optional key from a small flat pool, estimates. */
export const seedBatch = (maxLength = 30) =>
  fc
    .array(
      fc.record({
        parallelizable,
        resourceKey: fc.option(fc.constantFrom(...flatKeys), { nil: null }),
        access: fc.constant(null),
        estimateMs: estimate,
      }),
      { maxLength },
    )
    .map(toNodes);

/** Richer batches: hierarchical keys, access lists of reads and writes, plain keys too. */
export const accessBatch = (maxLength = 30, minLength = 0) =>
  fc
    .array(
      fc.record({
        parallelizable,
        resourceKey: fc.option(fc.constantFrom(...treeKeys, ...flatKeys), { nil: null, freq: 3 }),
        access: fc.option(fc.array(access([...treeKeys, ...flatKeys]), { maxLength: 3 }), {
          nil: null,
          freq: 4,
        }),
        estimateMs: estimate,
      }),
      { minLength, maxLength },
    )
    .map(toNodes);

/** Either kind of batch. */
export const anyBatch = (maxLength = 30) => fc.oneof(seedBatch(maxLength), accessBatch(maxLength));

/** Plain keys with `/` in them, none overlapping another: the greedy fast path applies. */
export const slashKeys = [
  'file:src/a.rs',
  'file:src/b.rs',
  'file:lib/a.rs',
  'x',
  'fs:/ab',
] as const;

/** Plain keys that overlap some of {@link slashKeys}: ancestors, a trailing `/`, the root. */
export const nestedKeys = ['file:src', 'file:src/', 'file:src/a.rs/x', 'fs:', '', '/x'] as const;

/** Seed-model batches (plain keys only, no access lists) drawing keys from `keys`. */
export const plainKeyBatch = (keys: readonly string[], maxLength = 30) =>
  fc
    .array(
      fc.record({
        parallelizable,
        resourceKey: fc.option(fc.constantFrom(...keys), { nil: null, freq: 4 }),
        access: fc.constant(null),
        estimateMs: estimate,
      }),
      { maxLength },
    )
    .map(toNodes);
