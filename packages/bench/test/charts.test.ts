import { describe, expect, it } from 'vitest';
import { groupedBarChart } from '../src/report/charts/grouped-bar-chart.js';
import { logLogChart } from '../src/report/charts/log-log-chart.js';

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
    yMin: 1,
    referenceLine: 1,
  });

  it('draws a group of bars per series, skipping missing values', () => {
    expect(count(svg, /data-series="/g)).toBe(2);
    expect(count(svg, /<rect [^>]*data-group=/g)).toBe(3);
    expect(svg).toContain('data-group="hot &amp; cold" data-value="1"');
    expect(count(svg, /data-legend="/g)).toBe(2);
    expect(svg).toContain('aria-label="Ratio &lt;1&gt;"');
  });

  it('makes bar heights proportional to the value above the axis start', () => {
    const heights = [
      ...svg.matchAll(/height="([\d.]+)" data-group="explore" data-value="([\d.]+)"/g),
    ].map((match) => ({ height: Number(match[1]), value: Number(match[2]) }));
    expect(heights).toHaveLength(2);
    // 0.2 above 1 is twice 0.1 above 1.
    expect(heights[0]!.height / heights[1]!.height).toBeCloseTo(2, 1);
  });
});

describe('logLogChart', () => {
  it('draws a line per series and breaks it where a point is missing', () => {
    const svg = logLogChart({
      id: 'scaling',
      title: 'scaling',
      xLabel: 'calls',
      yLabel: 'ms',
      series: [
        {
          name: 'a',
          points: [
            { x: 10, y: 1 },
            { x: 100, y: 10 },
            { x: 1000, y: 100 },
          ],
        },
        {
          name: 'b',
          points: [
            { x: 10, y: 2 },
            { x: 100, y: null },
            { x: 1000, y: 3 },
          ],
        },
      ],
    });
    const paths = [...svg.matchAll(/data-series="(\w)"><path d="([^"]*)"/g)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(paths.map(([name]) => name)).toEqual(['a', 'b']);
    expect(count(paths[0]![1]!, /M/g)).toBe(1);
    expect(count(paths[0]![1]!, /L/g)).toBe(2);
    expect(count(paths[1]![1]!, /M/g)).toBe(2);
    expect(count(svg, /<circle /g)).toBe(5);
    // On log-log axes a power law is a straight line: equal steps between the points of `a`.
    const points = [...paths[0]![1]!.matchAll(/[ML]([\d.]+) ([\d.]+)/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    expect(points[1]![0]! - points[0]![0]!).toBeCloseTo(points[2]![0]! - points[1]![0]!, 0);
    expect(points[1]![1]! - points[0]![1]!).toBeCloseTo(points[2]![1]! - points[1]![1]!, 0);
  });
});

//END
