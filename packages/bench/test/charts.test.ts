import { describe, expect, it } from 'vitest';
import { groupedBarChart } from '../src/report/bar-chart.js';

const count = (text: string, pattern: RegExp): number => (text.match(pattern) ?? []).length;

describe('groupedBarChart', () => {
  const svg = groupedBarChart({
    id: 'ratio',
    title: 'Ratio <1>',
    groups: ['explore', 'hot & cold'],
    series: [
      { name: 'greedy', values: [1.2, 1] },
      { name: 'optimal', values: [1.1, null] },
    ],
    yLabel: 'ratio',
    referenceLine: 1,
  });

  it('draws a group of bars per series, skipping missing values', () => {
    expect(count(svg, /data-series="/g)).toBe(2);
    expect(count(svg, /<rect [^>]*data-group=/g)).toBe(3);
    expect(svg).toContain('data-group="hot &amp; cold" data-value="1"');
    expect(count(svg, /data-legend="/g)).toBe(2);
    expect(svg).toContain('aria-label="Ratio &lt;1&gt;"');
  });

  it('makes bar heights proportional to the value', () => {
    const heights = [
      ...svg.matchAll(/height="([\d.]+)" data-group="explore" data-value="([\d.]+)"/g),
    ].map((match) => ({ height: Number(match[1]), value: Number(match[2]) }));
    expect(heights).toHaveLength(2);
    expect(heights[0]!.height / heights[1]!.height).toBeCloseTo(1.2 / 1.1, 2);
  });
});
