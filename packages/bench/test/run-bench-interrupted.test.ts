import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { greedyPlanner } from '@toolwaves/planner';
import { describe, expect, it } from 'vitest';
import {
  BenchError,
  defaultStrategies,
  loadTraceMappings,
  plannerStrategy,
  replayTrace,
  runBench,
} from '../src/index.js';
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

  it('refuses an unknown option, naming the one meant, here and in the profile', async () => {
    await expect(runBench({ maxConcurency: 4 } as never)).rejects.toMatchObject({
      name: 'BenchError',
      code: 'invalid_options',
      message: expect.stringMatching(
        /^Unknown option `maxConcurency` in the options of runBench; did you mean `maxConcurrency`\? The options are `strategies`, `quick`, `profile`,/,
      ),
    });
    await expect(runBench({ profile: { seed: 2 } } as never)).rejects.toThrow(
      'Unknown option `seed` in `profile` of runBench; did you mean `seeds`? The options are `sizes`, `repeats`, `seeds`, `warmupTurns`, `realSizes`, `realRepeats`, `streamBudgetMs`',
    );
  });
});

describe('the other bench functions, given bad options', () => {
  it('name the option and the value', async () => {
    expect(() => defaultStrategies({ optimalBudget: 5 } as never)).toThrow(
      'Unknown option `optimalBudget` in the options of defaultStrategies; did you mean `optimalBudgetMs`?',
    );
    expect(() => plannerStrategy(greedyPlanner(), { clairvoyant: 'yes' } as never)).toThrow(
      'Expected `clairvoyant` to be a boolean, got `"yes"` (string)',
    );
    expect(() => plannerStrategy(undefined as never)).toThrow(
      'Expected `planner` to be a Planner ({ name: string, plan(nodes, options) }), got `undefined` (undefined)',
    );
    expect(() =>
      replayTrace({ trace: { format: 'openai', turns: [] }, maxConcurency: 2 } as never),
    ).toThrow(
      'Unknown option `maxConcurency` in the options of replayTrace; did you mean `maxConcurrency`?',
    );
    await expect(loadTraceMappings({ file: 'map.mjs' } as never)).rejects.toThrow(
      'Unknown option `file` in the options of loadTraceMappings; the options are `path`, `cwd`',
    );
  });
});
