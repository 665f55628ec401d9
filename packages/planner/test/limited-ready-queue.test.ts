import { describe, expect, it } from 'vitest';
import { LimitedReadyQueue, NamedLimits, PlannerError } from '../src/index.js';

describe('NamedLimits', () => {
  it('takes all weights at once or none, and tells who gave back', () => {
    const limits = new NamedLimits({ api: 4, db: 1 });
    expect(limits.blockers({ api: 3, db: 1 })).toEqual([]);
    limits.take({ api: 3, db: 1 });
    expect(limits.inUse('api')).toBe(3);
    expect(limits.blockers({ api: 2, db: 1 })).toEqual(['api', 'db']);
    expect(() => limits.take({ api: 2 })).toThrow(PlannerError);
    expect(limits.inUse('api')).toBe(3); // nothing taken by the refused call
    let heard = 0;
    const stop = limits.onGive(() => heard++);
    limits.give({ api: 3, db: 1 });
    stop();
    limits.give({});
    expect(heard).toBe(1);
    expect(limits.blockers({ api: 4, db: 1, other: 99 })).toEqual([]); // unknown names never block
  });

  it('refuses a capacity that is not an integer from 1 up, naming the limit', () => {
    expect(() => new NamedLimits({ api: 0 })).toThrow(
      'Expected the capacity of limit `api` to be an integer from 1 up, got `0` (number)',
    );
  });
});

describe('LimitedReadyQueue', () => {
  it('passes over a call that does not fit: no head-of-line blocking', () => {
    const limits = new NamedLimits({ api: 2 });
    const queue = new LimitedReadyQueue({ limits });
    queue.add({ index: 0, dependencies: [], limits: { api: 2 } });
    queue.add({ index: 1, dependencies: [], limits: { api: 1 } });
    queue.add({ index: 2, dependencies: [] });
    queue.add({ index: 3, dependencies: [1] });
    expect(queue.take()).toBe(0);
    expect(queue.take()).toBe(2); // 1 waits for `api`; 2 counts against nothing
    expect(queue.take()).toBeUndefined();
    expect(queue.limitWaitsOf(1)).toEqual(['api']);
    expect(queue.limitWaitsOf(2)).toEqual([]);
    queue.end(0);
    expect(queue.take()).toBe(1);
    queue.end(1); // its dependent becomes ready
    expect(queue.take()).toBe(3);
    expect(queue.limitWaitsOf(3)).toEqual([]);
  });

  it('keeps priority among the calls that fit, and shares its limits with another queue', () => {
    const limits = new NamedLimits({ api: 3 });
    const first = new LimitedReadyQueue({ limits, priority: 'longest-first' });
    const second = new LimitedReadyQueue({ limits });
    first.add({ index: 0, dependencies: [], estimateMs: 5, limits: { api: 1 } });
    first.add({ index: 1, dependencies: [], estimateMs: 50, limits: { api: 2 } });
    expect(first.take()).toBe(1);
    second.add({ index: 0, dependencies: [], limits: { api: 2 } });
    expect(second.take()).toBeUndefined(); // 2 of 3 held by the other queue
    expect(first.take()).toBe(0);
    first.end(1);
    expect(second.take()).toBe(0);
    expect(second.limitWaitsOf(0)).toEqual(['api']);
  });

  it('refuses options it does not know and limits that are not NamedLimits', () => {
    expect(() => new LimitedReadyQueue({ limits: { api: 1 } } as never)).toThrow(
      'Expected `limits` to be a NamedLimits, got `{"api":1}` (object)',
    );
  });
});
