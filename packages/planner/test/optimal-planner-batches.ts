import {
  type Access,
  DEFAULT_MAX_EXPANSIONS,
  optimalPlanner,
  type PlanNode,
} from '@toolwaves/planner';
import fc from 'fast-check';

// Batches for the optimal planner's tests: mixed safe/unsafe calls, plain keys, access lists of
// reads and writes on hierarchical keys, varied (sometimes missing) estimates.

/** Seed-model keys: none an ancestor of another. */
const flatKeys = ['a', 'b', 'c'] as const;
/** Hierarchical keys, with the edge cases of the overlap rule (trailing `/`, `fs:/ab`, a root). */
const treeKeys = [
  'fs:/a',
  'fs:/a/',
  'fs:/a/b',
  'fs:/a/b/c.txt',
  'fs:/ab',
  'fs:/b',
  'fs:/',
] as const;
const keys = [...flatKeys, ...treeKeys];

const access: fc.Arbitrary<Access> = fc.record({
  key: fc.constantFrom(...keys),
  mode: fc.constantFrom('read' as const, 'write' as const),
});

const estimateMs = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 20 }) },
  // Quarters: not whole numbers, yet sums stay exact, so makespans compare exactly.
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 80 }).map((quarters) => quarters / 4) },
);

/** What a call touches: nothing, a plain key, an access list, or both. */
const touches = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  { weight: 2, arbitrary: fc.record({ resourceKey: fc.constantFrom(...keys) }) },
  { weight: 2, arbitrary: fc.record({ access: fc.array(access, { minLength: 1, maxLength: 3 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      resourceKey: fc.constantFrom(...keys),
      access: fc.array(access, { maxLength: 2 }),
    }),
  },
);

/** One call, without its index: about one in six is not concurrency-safe (keys or not). */
const call = fc
  .tuple(
    fc.integer({ min: 0, max: 5 }).map((roll) => roll !== 0),
    touches,
    fc.option(estimateMs, { nil: undefined, freq: 6 }),
  )
  .map(([parallelizable, touched, estimate]) => ({
    parallelizable,
    ...touched,
    ...(estimate === undefined ? {} : { estimateMs: estimate }),
  }));

/** A batch of `minLength`..`maxLength` calls, indexed in order. */
export const batch = (minLength: number, maxLength: number): fc.Arbitrary<PlanNode[]> =>
  fc
    .array(call, { minLength, maxLength, size: 'max' })
    .map((calls) => calls.map((node, index): PlanNode => ({ index, ...node })));

/** A batch of safe calls only, keyless or not, whole-number estimates: the search's hard case. */
export const safeBatch = (minLength: number, maxLength: number): fc.Arbitrary<PlanNode[]> =>
  fc
    .array(
      fc.record(
        {
          resourceKey: fc.constantFrom(...flatKeys),
          estimateMs: fc.integer({ min: 1, max: 20 }),
        },
        { requiredKeys: ['estimateMs'] },
      ),
      { minLength, maxLength, size: 'max' },
    )
    .map((calls) =>
      calls.map((node, index): PlanNode => ({ index, parallelizable: true, ...node })),
    );

/** `maxConcurrency` from 1 to 4. */
export const cap = fc.integer({ min: 1, max: 4 });

/**
 * The optimal planner limited by work alone: its time budget (an hour) never binds in a test,
 * so what it plans never depends on the machine's speed or load.
 */
export const workBudgeted = (maxExpansions = DEFAULT_MAX_EXPANSIONS) =>
  optimalPlanner({ budgetMs: 3_600_000, maxExpansions });
