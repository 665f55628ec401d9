import { describe, expect, it } from 'vitest';
import { PLANNER_NAMES } from '../src/cli-options.js';
import { comparePlanners } from '../src/compare-planners.js';
import { scriptedSession } from '../src/scripted-session.js';

describe('comparePlanners', () => {
  it('replays the session under each planner on fresh copies, without errors', async () => {
    const progress: string[] = [];
    const rows = await comparePlanners({
      turns: scriptedSession('.'),
      dir: '.',
      planners: ['sequential', 'greedy', 'ordered', 'optimal'],
      maxConcurrency: 8,
      latency: 0,
      onProgress: (planner) => progress.push(planner),
    });
    expect(progress).toEqual(['sequential', 'greedy', 'ordered', 'optimal']);
    expect(rows.map((row) => row.planner)).toEqual(['sequential', 'greedy', 'ordered', 'optimal']);
    const calls = scriptedSession('.').reduce((sum, turn) => sum + turn.calls.length, 0);
    for (const row of rows) {
      expect(row.calls).toBe(calls);
      expect(row.errors).toBe(0);
    }
    const byName = Object.fromEntries(rows.map((row) => [row.planner, row]));
    expect(byName.sequential?.waves).toBe(calls);
    expect(byName.sequential?.speedup).toBe(1);
    expect(byName.greedy?.waves).toBeLessThan(calls);
    expect(byName.greedy?.waves).toBeLessThanOrEqual(byName.ordered?.waves ?? 0);
    expect(PLANNER_NAMES).toContain('optimal');
  });
});
