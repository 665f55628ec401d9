import type { CoordinationGrant } from '@toolwaves/core';
import type { PlanNode } from '@toolwaves/planner';
import { describe, expect, it } from 'vitest';
import { LingeringCalls } from '../src/lingering-calls.js';
import { ToolHolds } from '../src/tool-holds.js';
import { marbleScheduler } from './marble-scheduler.js';

const writer = (index: number, key: string): PlanNode => ({
  index,
  parallelizable: true,
  resourceKey: key,
});

/** A grant that counts its releases; `lose()` aborts its `lost` signal. */
function countingGrant() {
  const lost = new AbortController();
  const grant = {
    releases: 0,
    lost: lost.signal,
    release(): Promise<void> {
      grant.releases += 1;
      return Promise.resolve();
    },
    lose: (reason: string) => lost.abort(reason),
  };
  return grant satisfies CoordinationGrant;
}

describe('ToolHolds', () => {
  it('gives a running tool’s grant back once when it settles, and stops listening for its loss', () => {
    const holds = new ToolHolds();
    const grant = countingGrant();
    const losses: unknown[] = [];
    holds.holdGrant(grant, () => losses.push(grant.lost.reason));
    holds.releaseGrant();
    holds.releaseGrant();
    grant.lose('expired');
    expect(grant.releases).toBe(1);
    expect(losses).toEqual([]);
  });

  it('tells of a grant lost while the tool runs', () => {
    const holds = new ToolHolds();
    const grant = countingGrant();
    const losses: unknown[] = [];
    holds.holdGrant(grant, () => losses.push(grant.lost.reason));
    grant.lose('expired');
    expect(losses).toEqual(['expired']);
    expect(grant.releases).toBe(0);
  });

  it('an outliving tool keeps its keys and its grant until it settles, then gives both back once', () => {
    const test = marbleScheduler();
    test.run(({ expectObservable, cold }) => {
      const lingering = new LingeringCalls({ scheduler: test, settleTimeoutMs: 100 });
      const holds = new ToolHolds();
      const grant = countingGrant();
      const losses: unknown[] = [];
      holds.holdGrant(grant, () => losses.push(grant.lost.reason));
      holds.outlive({
        run: 1,
        lingering,
        node: writer(0, 'fs:/a'),
        toolCallId: 'a',
        toolName: 'w',
      });
      // Its attempt has been answered: a loss now is not reported.
      grant.lose('expired');
      expect(losses).toEqual([]);
      expect(grant.releases).toBe(0);
      // The tool settles at frame 5; a second report of it, and one of an unknown run, do nothing.
      cold('-----x').subscribe(() => {
        holds.settleLate(1);
        holds.settleLate(1);
        holds.settleLate(2);
      });
      expectObservable(lingering.whenClear(writer(1, 'fs:/a'))).toBe('-----|');
      test.schedule(() => {
        expect(grant.releases).toBe(1);
        expect(lingering.size).toBe(0);
      }, 6);
    });
  });

  it('the settle timeout gives the keys back but not the grant: that waits until the tool settles', () => {
    const test = marbleScheduler();
    test.run(() => {
      const lingering = new LingeringCalls({ scheduler: test, settleTimeoutMs: 30 });
      const holds = new ToolHolds();
      const grant = countingGrant();
      holds.holdGrant(grant, () => undefined);
      holds.outlive({
        run: 1,
        lingering,
        node: writer(0, 'fs:/a'),
        toolCallId: 'a',
        toolName: 'w',
      });
      test.schedule(() => {
        expect(lingering.size).toBe(0);
        // The tool may still write: its fleet grant is kept (and renewed by the coordinator).
        expect(grant.releases).toBe(0);
      }, 31);
      test.schedule(() => {
        holds.settleLate(1);
        expect(grant.releases).toBe(1);
        holds.settleLate(1);
        expect(grant.releases).toBe(1);
      }, 500);
    });
  });

  it('a tool without a grant that outlives its attempt holds only its keys', () => {
    const test = marbleScheduler();
    test.run(() => {
      const lingering = new LingeringCalls({ scheduler: test, settleTimeoutMs: 100 });
      const holds = new ToolHolds();
      holds.outlive({
        run: 3,
        lingering,
        node: writer(0, 'fs:/a'),
        toolCallId: 'a',
        toolName: 'w',
      });
      expect(lingering.blocks(writer(1, 'fs:/a'))).toBe(true);
      holds.settleLate(3);
      expect(lingering.size).toBe(0);
    });
  });

  it('a grant whose release throws or rejects does not break the caller', async () => {
    const throwing = {
      ...countingGrant(),
      release: (): Promise<void> => {
        throw new Error('broken');
      },
    };
    const rejecting = { ...countingGrant(), release: () => Promise.reject(new Error('broken')) };
    expect(() => ToolHolds.giveBack(throwing)).not.toThrow();
    expect(() => ToolHolds.giveBack(rejecting)).not.toThrow();
    // The rejection is handled: no unhandled rejection reaches the test run.
    await Promise.resolve();
  });
});
