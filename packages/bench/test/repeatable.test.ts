import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { type BenchReport, headlineMarkdown, renderJson, runBench } from '../src/index.js';

/** The report without what is measured on the machine: the time stamp and the environment. */
const figuresOf = (report: BenchReport): string =>
  renderJson({
    ...report,
    meta: { ...report.meta, generatedAt: '', environment: '' },
  });

const run = (seed: number) =>
  runBench({
    quick: true,
    seed,
    profile: { seeds: 2, sizes: [4, 16], streamBudgetMs: 0 },
    command: 'test',
  });

describe('the same seed', () => {
  it('gives byte-identical report figures, optimal included (it runs on a work budget)', async () => {
    const [first, second, other] = await Promise.all([run(3), run(3), run(4)]);
    expect(figuresOf(second)).toBe(figuresOf(first));
    expect(headlineMarkdown(second)).toBe(headlineMarkdown(first));
    // Another seed, other batches: the figures move.
    expect(figuresOf(other)).not.toBe(figuresOf(first));
  }, 60_000);
});
