import { describe, expect, it } from 'vitest';
import {
  closestName,
  greedyPlanner,
  optimalPlanner,
  PlannerError,
  simulateEager,
  verifyPlan,
} from '../src/index.js';

describe('closestName', () => {
  it('finds the option a near miss meant', () => {
    const names = ['root', 'cachedReads', 'tracerProvider', 'maxSteps'];
    expect(closestName('cachedRead', names)).toBe('cachedReads');
    expect(closestName('tracerProvidr', names)).toBe('tracerProvider');
    expect(closestName('maxStep', names)).toBe('maxSteps');
    expect(closestName('rootDir', names)).toBe('root');
    expect(closestName('ROOT', names)).toBe('root');
  });

  it('suggests nothing for a name unlike every option', () => {
    expect(closestName('colour', ['root', 'cachedReads'])).toBeUndefined();
    expect(closestName('x', ['root'])).toBeUndefined();
  });
});

describe('planner options', () => {
  const nodes = [{ index: 0, parallelizable: true }];

  it('refuses an unknown option, naming the one meant', () => {
    expect(() => optimalPlanner({ budget: 5 } as never)).toThrow(
      new PlannerError({
        code: 'invalid_options',
        message:
          'Unknown option `budget` in the options of optimalPlanner; did you mean `budgetMs`? The options are `budgetMs`, `maxExpansions`',
      }),
    );
    expect(() => greedyPlanner().plan(nodes, { maxConcurency: 2 } as never)).toThrow(
      'Unknown option `maxConcurency` in the options of greedyPlanner().plan; did you mean `maxConcurrency`? The options are `maxConcurrency`',
    );
    expect(() => simulateEager(nodes, { arrivals: [0] } as never)).toThrow(
      'Unknown option `arrivals` in the options of simulateEager; did you mean `arrivalMs`?',
    );
  });

  it('names options that are not an object', () => {
    const plan = greedyPlanner().plan(nodes);
    expect(() => verifyPlan(nodes, plan, true as never)).toThrow(
      'Expected the options of verifyPlan to be an object, got `true` (boolean)',
    );
  });
});
