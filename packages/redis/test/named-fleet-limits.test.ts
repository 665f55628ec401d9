import type { CoordinationGrant } from '@toolwaves/core';
import { expect, it } from 'vitest';
import { RedisCoordinatorError } from '../src/index.js';
import {
  coordinatorFor,
  describeWithRedis,
  freshNamespace,
  lockRequest,
  settleEarlierRequests,
  tracked,
} from './fleet-fixture.js';

describeWithRedis('named fleet limits', () => {
  it('counts the calls of every tool that declares a limit against it, across processes', async () => {
    const namespace = freshNamespace();
    const limits = { github: 2 };
    const one = coordinatorFor({ namespace, limits });
    const two = coordinatorFor({ namespace, limits });
    expect(one.limits).toEqual({ github: 2 });
    const ask = (coordinator: typeof one, toolName: string) =>
      tracked(coordinator.acquire({ ...lockRequest([], { toolName }), limits: { github: 1 } }));
    const a = ask(one, 'gh_issues');
    const b = ask(two, 'gh_pulls');
    await settleEarlierRequests(one);
    await settleEarlierRequests(two);
    const c = ask(two, 'gh_issues');
    const free = tracked(one.acquire(lockRequest([], { toolName: 'gh_issues' })));
    await settleEarlierRequests(two);
    await settleEarlierRequests(one);
    // Two tools, one limit: the third call waits; a call that declares no limit does not.
    expect([a, b, c, free].map((t) => t.status)).toEqual([
      'resolved',
      'resolved',
      'pending',
      'resolved',
    ]);
    await (a.value as CoordinationGrant).release();
    await (await c.promise).release();
    await (b.value as CoordinationGrant).release();
    await (free.value as CoordinationGrant).release();
  });

  it('refuses what one Redis limit per call cannot hold, sending nothing', async () => {
    const coordinator = coordinatorFor({
      namespace: freshNamespace(),
      limits: { github: 4, search: 2 },
    });
    const refusal = async (limits: Record<string, number>, toolName = 'tool') => {
      const error: unknown = await coordinator
        .acquire({ ...lockRequest([], { toolName }), limits })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedisCoordinatorError);
      expect((error as RedisCoordinatorError).code).toBe('invalid_request');
      return (error as RedisCoordinatorError).message;
    };
    const rule =
      ', and the Redis coordinator counts one limit per call, one unit per call (see "Named limits" in the @toolwaves/redis README: ' +
      "declare at most one of the coordinator's limits with weight 1, or leave the others out of its `limits` to count them in each process); " +
      'nothing was sent to Redis';
    const expected = (tool: string, which: string, why: string) =>
      new RegExp(
        `^Cannot hold the fleet limits of call call-\\d+ \\(${tool}\\): ${which}; ${why}${literally(rule)}$`,
      );
    expect(await refusal({ github: 2 })).toMatch(
      expected('tool', literally('`github` (weight 2 of capacity 4)'), 'a weight is not 1'),
    );
    expect(await refusal({ github: 1, search: 1 })).toMatch(
      expected(
        'tool',
        literally('`github` (weight 1 of capacity 4), `search` (weight 1 of capacity 2)'),
        'it counts against 2 limits',
      ),
    );
    // A tool with a limit of its own counts against it too, with weight 1.
    expect(await refusal({ github: 3 }, 'search')).toMatch(
      expected(
        'search',
        literally('`github` (weight 3 of capacity 4), `search` (weight 1 of capacity 2)'),
        'it counts against 2 limits and a weight is not 1',
      ),
    );
    // Declaring the tool's own limit by name counts it once, with the declared weight.
    expect(await refusal({ search: 2 }, 'search')).toMatch(
      expected('search', literally('`search` (weight 2 of capacity 2)'), 'a weight is not 1'),
    );
    expect(coordinator.roundTrips).toBe(0);
    // A name it does not have is not its business: counted where it is configured.
    const grant = await coordinator.acquire({ ...lockRequest([]), limits: { local: 3 } });
    expect(coordinator.roundTrips).toBe(0);
    await grant.release();
  });
});

/** `text` as a literal inside a regular expression. */
function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
