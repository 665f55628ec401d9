import {
  greedyPlanner,
  lowerBound,
  makespan,
  orderedPlanner,
  type PlanNode,
  PlannerError,
  resolveMaxConcurrency,
  sequentialPlanner,
} from '@toolwaves/planner';
import { describe, expect, it } from 'vitest';

const planners = [greedyPlanner(), orderedPlanner(), sequentialPlanner()];
const valid: PlanNode[] = [{ index: 0, parallelizable: true }];
const bad = (nodes: unknown) => nodes as PlanNode[];

describe('input validation', () => {
  it.each(planners.map((planner) => [planner.name, planner] as const))(
    '%s: nodes[i].index must be i',
    (_, planner) => {
      const nodes = bad([
        { index: 0, parallelizable: true },
        { index: 5, parallelizable: true },
      ]);
      expect(() => planner.plan(nodes)).toThrow(
        expect.objectContaining({
          name: 'PlannerError',
          code: 'invalid_nodes',
          message: 'Expected `nodes[1].index` to be 1, got `5` (number)',
        }),
      );
    },
  );

  it.each([0, 1.5, -1, Number.NaN, '2', Number.POSITIVE_INFINITY])(
    'maxConcurrency %s is refused in the p-queue style',
    (value) => {
      const options = { maxConcurrency: value as number };
      const expected =
        /^Expected `maxConcurrency` to be an integer from 1 and up, got `.+` \((number|string)\)$/;
      for (const call of [
        () => greedyPlanner().plan(valid, options),
        () => orderedPlanner().plan(valid, options),
        () => sequentialPlanner().plan(valid, options),
        () => makespan(valid, { planner: 'x', waves: [] }, options),
        () => lowerBound(valid, options),
      ]) {
        expect(call).toThrow(
          expect.objectContaining({
            code: 'invalid_options',
            message: expect.stringMatching(expected),
          }),
        );
      }
    },
  );

  it('writes the value the way p-queue does', () => {
    expect(() => resolveMaxConcurrency({ maxConcurrency: 0 })).toThrow(
      'Expected `maxConcurrency` to be an integer from 1 and up, got `0` (number)',
    );
    expect(resolveMaxConcurrency(undefined)).toBe(8);
    expect(resolveMaxConcurrency({ maxConcurrency: 3 })).toBe(3);
  });

  it.each([
    [bad('nodes'), 'Expected `nodes` to be an array, got `"nodes"` (string)'],
    [bad([null]), 'Expected `nodes[0]` to be an object, got `null` (null)'],
    [
      bad([{ index: 0, parallelizable: 'yes' }]),
      'Expected `nodes[0].parallelizable` to be a boolean, got `"yes"` (string)',
    ],
    [
      bad([{ index: 0, parallelizable: true, resourceKey: 7 }]),
      'Expected `nodes[0].resourceKey` to be a string, got `7` (number)',
    ],
    [
      bad([{ index: 0, parallelizable: true, access: {} }]),
      'Expected `nodes[0].access` to be an array, got `{}` (object)',
    ],
    [
      bad([{ index: 0, parallelizable: true, access: [{ key: 'a', mode: 'append' }] }]),
      "Expected `nodes[0].access[0].mode` to be 'read' or 'write', got `\"append\"` (string)",
    ],
    [
      bad([{ index: 0, parallelizable: true, access: [{ mode: 'read' }] }]),
      'Expected `nodes[0].access[0].key` to be a string, got `undefined` (undefined)',
    ],
  ])('refuses malformed nodes: %j', (nodes, message) => {
    expect(() => greedyPlanner().plan(nodes)).toThrow(
      expect.objectContaining({ code: 'invalid_nodes', message }),
    );
  });

  it('does not consult the keys of a call that is not concurrency-safe', () => {
    const nodes = bad([{ index: 0, parallelizable: false, resourceKey: 7 }]);
    expect(greedyPlanner().plan(nodes).waves).toEqual([{ calls: [0], open: false }]);
  });

  it('checks estimates where durations are read', () => {
    const nodes = bad([{ index: 0, parallelizable: true, estimateMs: Number.NaN }]);
    const message =
      'Expected `nodes[0].estimateMs` to be a finite number from 0 and up, got `NaN` (number)';
    expect(() => lowerBound(nodes)).toThrow(message);
    expect(() => makespan(nodes, { planner: 'x', waves: [{ calls: [0], open: true }] })).toThrow(
      message,
    );
    expect(greedyPlanner().plan(nodes).waves).toHaveLength(1);
  });

  it('is one error class with a literal code and a cause', () => {
    const cause = new Error('inner');
    const error = new PlannerError({ code: 'invalid_plan', message: 'm', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('PlannerError');
    expect(error.code).toBe('invalid_plan');
    expect(error.cause).toBe(cause);
  });
});
