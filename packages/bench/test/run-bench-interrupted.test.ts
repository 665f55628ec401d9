import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BenchError, runBench } from '../src/index.js';
import { benchRegistry } from '../src/workloads/bench-registry.js';

describe('runBench, interrupted', () => {
  it('stops at the next batch, rejects with the reason and removes its workspace', async () => {
    const stop = new AbortController();
    const roots: string[] = [];
    let batches = 0;
    const run = runBench({
      quick: true,
      profile: { sizes: [4, 8], streamBudgetMs: 0 },
      registryFor: (root) => {
        roots.push(root);
        return benchRegistry({ root });
      },
      progress: {
        update: () => {
          batches += 1;
          if (batches === 2)
            stop.abort(new BenchError({ code: 'interrupted', message: 'interrupted' }));
        },
        finish: () => {},
      },
      signal: stop.signal,
    });
    await expect(run).rejects.toMatchObject({ name: 'BenchError', code: 'interrupted' });
    expect(batches).toBe(2);
    expect(roots).toHaveLength(1);
    expect(existsSync(roots[0] ?? '')).toBe(false);
  });
});

describe('runBench, given bad options', () => {
  it('names the option and the value before it does anything', async () => {
    await expect(runBench({ maxConcurrency: 0 })).rejects.toThrow(
      'Expected `maxConcurrency` to be an integer from 1 and up, got `0` (number)',
    );
    await expect(runBench({ tokensPerSecond: -1 })).rejects.toMatchObject({
      name: 'BenchError',
      code: 'invalid_options',
    });
    await expect(runBench({ profile: { seeds: 0 } })).rejects.toThrow(
      'Expected `profile.seeds` to be an integer from 1 and up, got `0` (number)',
    );
  });
});
