import { abortableDelay, fnTool, ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compareRemoteStrategies } from '../src/limits/compare-remote-strategies.js';
import { rateLimitedBlocks } from '../src/limits/rate-limited-blocks.js';
import { REMOTE_SERVERS, type RemoteTurn, remoteTurns } from '../src/limits/remote-turns.js';
import { type RemoteStrategy, simulateRemoteTurn } from '../src/limits/simulate-remote-turn.js';
import { blocksToMarkdown } from '../src/report/report-blocks.js';

const eager = (maxConcurrency: number): RemoteStrategy => ({
  name: 'eager',
  description: 'eager',
  execution: 'eager',
  maxConcurrency,
});

// Four calls to api-a (cap 2) then four to api-b (cap 4), 100 ms each.
const handMade: RemoteTurn = [
  ...Array.from({ length: 4 }, () => ({ server: 'api-a', durationMs: 100 })),
  ...Array.from({ length: 4 }, () => ({ server: 'api-b', durationMs: 100 })),
];

describe('the rate-limited workload', () => {
  it('a global cap alone overloads one server or idles the other; named limits do neither', () => {
    const run = (maxConcurrency: number, namedLimits: boolean) =>
      simulateRemoteTurn({
        turn: handMade,
        servers: REMOTE_SERVERS,
        strategy: eager(maxConcurrency),
        namedLimits,
      });
    // Cap 2: two calls at a time in model order: a, a | a, a | b, b | b, b — api-b idles first.
    expect(run(2, false)).toMatchObject({ turnMs: 400, rejections: 0 });
    // Cap 6: a0 a1 a2 a3 b0 b1 start at 0; api-a refuses a2 and a3 (answer at 30, back-off 100),
    // which ask again at 130 and end at 230; b2 and b3 start at 100 when slots free: 200.
    expect(run(6, false)).toMatchObject({ turnMs: 230, rejections: 2 });
    expect(run(6, false).startMs).toEqual([0, 0, 0, 0, 0, 0, 100, 100]);
    // Named limits: api-a 2 at a time (0, 100), api-b all four at 0: 200 ms, nothing refused.
    expect(run(6, true)).toMatchObject({ turnMs: 200, rejections: 0 });
    expect(run(6, true).startMs).toEqual([0, 0, 100, 100, 0, 0, 0, 0]);
  });

  it('never passes a server cap with named limits, whatever the strategy', () => {
    const figures = compareRemoteStrategies({ seeds: [1, 2], turns: 6, maxConcurrency: 8 });
    for (const row of figures.rows) expect(row.namedLimits.rejections.max, row.strategy).toBe(0);
    // Checked apart from the simulator's own count: the calls' intervals per server.
    for (const turn of remoteTurns({ seed: 3, turns: 6 })) {
      const { startMs } = simulateRemoteTurn({
        turn,
        servers: REMOTE_SERVERS,
        strategy: eager(Number.POSITIVE_INFINITY),
        namedLimits: true,
      });
      for (const server of REMOTE_SERVERS) {
        const own = turn.flatMap((call, i) =>
          call.server === server.name ? [[startMs[i]!, startMs[i]! + call.durationMs]] : [],
        );
        for (const [start] of own) {
          const running = own.filter(([s, e]) => s! <= start! && start! < e!).length;
          expect(running).toBeLessThanOrEqual(server.cap);
        }
      }
    }
  });

  it('gives the same figures for the same seed, and shows them in the headline', () => {
    const once = compareRemoteStrategies({ seeds: [4], turns: 5, maxConcurrency: 8 });
    const again = compareRemoteStrategies({ seeds: [4], turns: 5, maxConcurrency: 8 });
    expect(again).toEqual(once);
    const markdown = blocksToMarkdown(rateLimitedBlocks(once));
    expect(markdown).toContain('`api-a` (cap 2) and `api-b` (cap 4)');
    expect(markdown).toContain('| strategy | global cap only | refused | with named limits |');
    expect(markdown.split('\n').filter((line) => line.startsWith('| eager'))).toHaveLength(3);
  });
});

describe('the simulator against the Dispatcher', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts each call when the Dispatcher with the same limits does (virtual time)', async () => {
    // Whole milliseconds: the fake clock's timers count in them (the workload samples to 0.1 ms).
    const turns = remoteTurns({ seed: 7, turns: 3 }).map((turn) =>
      turn.map((call) => ({ ...call, durationMs: Math.round(call.durationMs) })),
    );
    for (const turn of turns) {
      const started: number[] = [];
      const t0 = Date.now();
      const registry = new ToolRegistry().add(
        fnTool<{ i: number }>({
          name: 'remote',
          description: 'a call to a rate-limited server',
          concurrencySafe: true,
          limits: ({ i }) => ({ [turn[i]!.server]: 1 }),
          execute: async ({ i }, context) => {
            started[i] = Date.now() - t0;
            await abortableDelay(turn[i]!.durationMs, context.signal);
            return 'ok';
          },
        }),
      );
      const limits = Object.fromEntries(REMOTE_SERVERS.map((s) => [s.name, s.cap]));
      const dispatcher = new Dispatcher({ registry, mode: 'eager', maxConcurrency: 8, limits });
      const calls = turn.map((_, i) => ({ id: `c${i}`, name: 'remote', input: { i } }));
      const done = dispatcher.dispatch(calls);
      await vi.runAllTimersAsync();
      await done;
      const simulated = simulateRemoteTurn({
        turn,
        servers: REMOTE_SERVERS,
        strategy: eager(8),
        namedLimits: true,
      });
      expect(started).toEqual(simulated.startMs);
    }
  });
});
