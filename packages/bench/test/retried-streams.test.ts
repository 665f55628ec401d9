import { describe, expect, it } from 'vitest';
import { blocksToMarkdown } from '../src/report/report-blocks.js';
import { retriedStreamsBlocks } from '../src/report/retried-streams-blocks.js';
import { retriedTurns } from '../src/retries/retried-turns.js';
import { runRetriedStreams } from '../src/retries/run-retried-streams.js';
import { VirtualClock } from '../src/retries/virtual-clock.js';
import { reportFixture } from './report-fixture.js';

const options = {
  seeds: [1, 2],
  turns: 12,
  failShare: 0.5,
  tokensPerSecond: 80,
  maxConcurrency: 8,
};

describe('retried streams', () => {
  it('makes the same turns for a seed: the last attempt completes, at most two fail, mid-message', () => {
    const turns = retriedTurns({ seed: 7, turns: 30, failShare: 0.5, tokensPerSecond: 80 });
    expect(retriedTurns({ seed: 7, turns: 30, failShare: 0.5, tokensPerSecond: 80 })).toEqual(
      turns,
    );
    expect(retriedTurns({ seed: 8, turns: 30, failShare: 0.5, tokensPerSecond: 80 })).not.toEqual(
      turns,
    );
    let failed = 0;
    for (const { attempts } of turns) {
      expect(attempts.at(-1)?.fails).toBe(false);
      expect(attempts.length).toBeLessThanOrEqual(3);
      for (const attempt of attempts) {
        for (const call of attempt.calls) expect(call.arrivalMs).toBeLessThanOrEqual(attempt.endMs);
        if (!attempt.fails) continue;
        failed += 1;
        expect(attempt.endMs).toBeGreaterThanOrEqual(attempt.calls[0]?.arrivalMs ?? 0);
      }
    }
    // Half the attempts fail, but a turn stops failing after two: between a quarter and a half.
    const attempts = turns.reduce((n, turn) => n + turn.attempts.length, 0);
    expect(failed / attempts).toBeGreaterThan(0.2);
    expect(failed / attempts).toBeLessThan(0.5);
  });

  it("'read-only' starts no side effect from a discarded attempt; 'all' does; the same seed gives the same figures", async () => {
    const figures = await runRetriedStreams(options);
    const [all, readOnly] = figures.strategies;
    expect(all?.whileStreaming).toBe('all');
    expect(readOnly?.whileStreaming).toBe('read-only');
    expect(readOnly?.discardedSideEffects.perSeed).toEqual([0, 0]);
    expect(Math.min(...(all?.discardedSideEffects.perSeed ?? []))).toBeGreaterThan(0);
    // Holding writes back never makes a turn shorter.
    for (const ratio of figures.readOnlyVersusAll.perSeed) expect(ratio).toBeGreaterThanOrEqual(1);
    expect(await runRetriedStreams(options)).toEqual(figures);
  });

  it('is in the headline', () => {
    const markdown = blocksToMarkdown(retriedStreamsBlocks(reportFixture()));
    expect(markdown).toContain("| 'read-only' | 0 | 3.40 s [3.30 s–3.50 s] | 600 ms |");
    expect(markdown).toContain("`'read-only'` ÷ `'all'`, summed turn time: 1.06");
    expect(retriedStreamsBlocks({ ...reportFixture(), retriedStreams: null })).toEqual([]);
  });
});

describe('VirtualClock', () => {
  it('runs timers in time order once every promise has settled, and an aborted sleep rejects', async () => {
    const clock = new VirtualClock();
    const seen: string[] = [];
    const controller = new AbortController();
    const chain = async () => {
      await clock.sleep(30);
      seen.push(`a@${clock.now()}`);
      await Promise.resolve();
      await clock.sleep(5);
      seen.push(`b@${clock.now()}`);
    };
    const aborted = clock
      .sleep(100, controller.signal)
      .catch((reason) => seen.push(`x ${reason}@${clock.now()}`));
    clock.schedule(() => controller.abort('stop'), 20);
    clock.schedule(() => seen.push(`t@${clock.now()}`), 35);
    const done = chain();
    await clock.runUntilIdle();
    await Promise.all([done, aborted]);
    expect(seen).toEqual(['x stop@20', 'a@30', 't@35', 'b@35']);
  });
});
