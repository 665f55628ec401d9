import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { timedSource } from '../src/real/run-real.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('timedSource', () => {
  it('yields each call once its arrival time has passed, on the virtual clock', async () => {
    const calls = [0, 1, 2].map((i) => ({ id: `c${i}`, name: 'stat', input: { path: 'a' } }));
    // A virtual clock moved along with the fake timers.
    let now = 0;
    const clock = () => now;
    const advance = async (ms: number) => {
      now += ms;
      await vi.advanceTimersByTimeAsync(ms);
    };
    const seen: [string, number][] = [];
    const start = clock();
    const reading = (async () => {
      for await (const call of timedSource({ calls, arrivalMs: [0, 50, 50], clock, start })) {
        seen.push([call.id, clock() - start]);
      }
    })();
    await advance(0);
    expect(seen).toEqual([['c0', 0]]);
    await advance(49);
    expect(seen).toEqual([['c0', 0]]);
    await advance(1);
    await reading;
    expect(seen).toEqual([
      ['c0', 0],
      ['c1', 50],
      ['c2', 50],
    ]);
  });
});
