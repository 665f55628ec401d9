import type { CoordinationGrant } from '@toolwaves/core';
import type { PlanNode } from '@toolwaves/planner';
import { describe, expect, it } from 'vitest';
import { giveBack, OutlivingTools } from '../src/outliving-tools.js';
import { marbleScheduler } from './marble-scheduler.js';

const writer = (index: number, key: string): PlanNode => ({
  index,
  parallelizable: true,
  resourceKey: key,
});
const reader = (index: number, key: string): PlanNode => ({
  index,
  parallelizable: true,
  access: [{ key, mode: 'read' }],
});
const unsafe = (index: number): PlanNode => ({ index, parallelizable: false });

/** A grant that counts its releases. */
function countingGrant() {
  const grant = {
    releases: 0,
    lost: new AbortController().signal,
    release(): Promise<void> {
      grant.releases += 1;
      return Promise.resolve();
    },
  };
  return grant satisfies CoordinationGrant;
}

describe('OutlivingTools on the marble timeline', () => {
  it('a conflicting wait completes when the tool settles; others pass at once', () => {
    const test = marbleScheduler();
    test.run(({ expectObservable, cold }) => {
      const outliving = new OutlivingTools({ scheduler: test, settleTimeoutMs: 100 });
      const hold = outliving.hold({ node: writer(0, 'fs:/a'), toolCallId: 'a', toolName: 'w' });
      cold('----x').subscribe(() => hold.settled());
      expectObservable(outliving.whenClear(writer(1, 'fs:/a/b'))).toBe('----|');
      expectObservable(outliving.whenClear(reader(2, 'fs:/a'))).toBe('----|');
      expectObservable(outliving.whenClear(writer(3, 'fs:/b'))).toBe('|');
      expectObservable(outliving.whenClear(unsafe(4))).toBe('----|');
    });
  });

  it('after settleTimeoutMs the keys are given back and the waiter is told; the grant is kept until the tool settles', () => {
    const test = marbleScheduler();
    test.run(({ expectObservable, cold }) => {
      const grant = countingGrant();
      const outliving = new OutlivingTools({ scheduler: test, settleTimeoutMs: 30 });
      const hold = outliving.hold({
        node: writer(0, 'fs:/a'),
        toolCallId: 'a',
        toolName: 'w',
        grant,
      });
      expectObservable(outliving.whenClear(writer(1, 'fs:/a'))).toBe('30ms (t|)', {
        t: { type: 'settle-timeout', toolCallId: 'a', toolName: 'w', heldMs: 30 },
      });
      test.schedule(() => {
        expect(outliving.size).toBe(0);
        // The tool may still write: its fleet grant is kept (the coordinator renews it).
        expect(grant.releases).toBe(0);
      }, 31);
      cold('500ms x').subscribe(() => {
        hold.settled();
        hold.settled();
        expect(grant.releases).toBe(1);
      });
    });
  });

  it('a tool that settles in time gives its keys and its grant back once', () => {
    const test = marbleScheduler();
    test.run(({ cold }) => {
      const grant = countingGrant();
      const outliving = new OutlivingTools({ scheduler: test, settleTimeoutMs: 100 });
      const hold = outliving.hold({
        node: writer(0, 'fs:/a'),
        toolCallId: 'a',
        toolName: 'w',
        grant,
      });
      expect(outliving.blocks(writer(1, 'fs:/a'))).toBe(true);
      cold('-----x').subscribe(() => {
        hold.settled();
        expect(outliving.size).toBe(0);
        expect(grant.releases).toBe(1);
      });
      test.schedule(() => {
        hold.settled();
        expect(grant.releases).toBe(1);
      }, 200);
    });
  });

  it('two outliving tools: the wait ends when the last conflicting one settles', () => {
    const test = marbleScheduler();
    test.run(({ expectObservable, cold }) => {
      const outliving = new OutlivingTools({ scheduler: test, settleTimeoutMs: 1_000 });
      const first = outliving.hold({ node: writer(0, 'k'), toolCallId: 'a', toolName: 'w' });
      const second = outliving.hold({ node: reader(1, 'k'), toolCallId: 'b', toolName: 'r' });
      cold('--x').subscribe(() => first.settled());
      cold('-----x').subscribe(() => second.settled());
      expectObservable(outliving.whenClear(writer(2, 'k'))).toBe('-----|');
      // A reader conflicts only with the writer.
      expectObservable(outliving.whenClear(reader(3, 'k'))).toBe('--|');
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
    expect(() => giveBack(throwing)).not.toThrow();
    expect(() => giveBack(rejecting)).not.toThrow();
    // The rejection is handled: no unhandled rejection reaches the test run.
    await Promise.resolve();
  });
});
