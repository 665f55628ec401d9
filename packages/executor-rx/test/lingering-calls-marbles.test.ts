import type { PlanNode } from '@toolwaves/planner';
import { describe, expect, it } from 'vitest';
import { LingeringCalls } from '../src/lingering-calls.js';
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

describe('LingeringCalls on the marble timeline', () => {
  it('a conflicting wait completes when the tool settles; others pass at once', () => {
    const test = marbleScheduler();
    test.run(({ expectObservable, cold }) => {
      const lingering = new LingeringCalls({ scheduler: test, settleTimeoutMs: 100 });
      const hold = lingering.hold({ node: writer(0, 'fs:/a'), toolCallId: 'a', toolName: 'w' });
      cold('----x').subscribe(() => hold.release());
      expectObservable(lingering.whenClear(writer(1, 'fs:/a/b'))).toBe('----|');
      expectObservable(lingering.whenClear(reader(2, 'fs:/a'))).toBe('----|');
      expectObservable(lingering.whenClear(writer(3, 'fs:/b'))).toBe('|');
      expectObservable(lingering.whenClear(unsafe(4))).toBe('----|');
    });
  });

  it('after settleTimeoutMs the keys are given back, and the waiter is told', () => {
    const test = marbleScheduler();
    test.run(({ expectObservable }) => {
      const released: string[] = [];
      const lingering = new LingeringCalls({ scheduler: test, settleTimeoutMs: 30 });
      lingering.hold({
        node: writer(0, 'fs:/a'),
        toolCallId: 'a',
        toolName: 'w',
        onRelease: () => released.push('a'),
      });
      expectObservable(lingering.whenClear(writer(1, 'fs:/a'))).toBe('30ms (t|)', {
        t: { type: 'settle-timeout', toolCallId: 'a', toolName: 'w', heldMs: 30 },
      });
      test.schedule(() => {
        expect(released).toEqual(['a']);
        expect(lingering.size).toBe(0);
      }, 31);
    });
  });

  it('two lingering calls: the wait ends when the last conflicting one settles', () => {
    const test = marbleScheduler();
    test.run(({ expectObservable, cold }) => {
      const lingering = new LingeringCalls({ scheduler: test, settleTimeoutMs: 1_000 });
      const first = lingering.hold({ node: writer(0, 'k'), toolCallId: 'a', toolName: 'w' });
      const second = lingering.hold({ node: reader(1, 'k'), toolCallId: 'b', toolName: 'r' });
      cold('--x').subscribe(() => first.release());
      cold('-----x').subscribe(() => second.release());
      expectObservable(lingering.whenClear(writer(2, 'k'))).toBe('-----|');
      // A reader conflicts only with the writer.
      expectObservable(lingering.whenClear(reader(3, 'k'))).toBe('--|');
    });
  });
});
