import { describe, expect, it } from 'vitest';
import { formatPlannerComparison } from '../src/comparison-view.js';
import { terminalStyle } from '../src/terminal-style.js';

const style = terminalStyle({ stream: {}, env: { NO_COLOR: '1' } });

describe('formatPlannerComparison', () => {
  it('prints the table, then why optimal can lose to greedy at run time', () => {
    const row = (planner: 'sequential' | 'greedy' | 'optimal', waves: number, wallMs: number) => ({
      planner,
      calls: 25,
      waves,
      wallMs,
      speedup: 2400 / wallMs,
      errors: 0,
    });
    const lines = formatPlannerComparison({
      rows: [row('sequential', 25, 2400), row('greedy', 10, 1200), row('optimal', 10, 1250)],
      style,
    });
    expect(lines.slice(0, 2)).toEqual([
      'The same session under each planner (whole turns at once, parallel mode, measured side by side)',
      [
        'planner     calls  waves  wall-clock  speedup vs sequential',
        '----------  -----  -----  ----------  ---------------------',
        'sequential     25     25     2400 ms                  1.00×',
        'greedy         25     10     1200 ms                  2.00×',
        'optimal        25     10     1250 ms                  1.92×',
      ].join('\n'),
    ]);
    const note = lines[2] ?? '';
    expect(lines).toHaveLength(3);
    // says what optimal optimises (its estimates), and when greedy can win (estimates off, same waves)
    expect(note).toMatch(/^ {2}optimal plans for the shortest time its estimates predict/);
    expect(note).toContain('when the estimates are off, or its waves are the same as greedy’s');
    expect(note).toContain('behind greedy');
  });
});
