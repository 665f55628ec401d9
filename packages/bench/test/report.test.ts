import { describe, expect, it } from 'vitest';
import { headlineMarkdown, renderHtml, renderJson, renderMarkdown } from '../src/index.js';
import { reportFixture } from './report-fixture.js';

const report = reportFixture();
const strategies = ['greedy', 'ordered', 'sequential', 'proving', 'eager', 'all-at-once'];

describe('renderJson', () => {
  it('has the documented shape, numbers rounded to 4 decimals', () => {
    const json = JSON.parse(renderJson(report));
    expect(Object.keys(json)).toEqual([
      'meta',
      'workloads',
      'overall',
      'realStreams',
      'retriedStreams',
    ]);
    expect(json.workloads.map((w: { name: string }) => w.name)).toEqual(['tools <a&b>', 'seed']);
    expect(json.workloads[1].batches).toBe(2);
    for (const workload of json.workloads) {
      for (const mode of ['batch', 'stream']) {
        expect(workload[mode].map((r: { strategy: string }) => r.strategy)).toEqual(strategies);
        for (const result of workload[mode]) {
          for (const key of ['versusGreedy', 'versusBound', 'turnMs', 'afterStreamMs', 'proven']) {
            expect(result).toHaveProperty(key);
          }
          expect(result.versusBound.median).toBe(Math.round(result.versusBound.median * 1e4) / 1e4);
        }
      }
    }
    expect(json.workloads[0].batch[3].proven).toBe(0);
    expect(json.workloads[1].batch[3].proven).toBe(1);
    expect(json.workloads[0].batch[0].proven).toBeNull();
    // Two seeds, three batches each.
    expect(json.workloads[1].perBatch.map((b: { seed: number }) => b.seed)).toEqual([1, 1, 2, 2]);
    expect(json.realStreams).toHaveLength(2);
  });
});

describe('headlineMarkdown', () => {
  const headline = headlineMarkdown(report);

  it('has a row per strategy, batch and streamed, as ratios to greedy and to the lower bound with their spread', () => {
    expect(headline).toContain(
      '| strategy | batch ÷ greedy | batch ÷ LB | streamed ÷ greedy | streamed ÷ LB | streamed turn | after stream | conflicting overlaps (lost updates) |',
    );
    // Sequential ÷ greedy per seed: seed 1 508 / 380 = 1.337, seed 2 754.5 / 567.5 = 1.330.
    const row = headline.split('\n').find((line) => line.startsWith('| sequential |'))!;
    expect(row.split('|')[2]!.trim()).toBe('1.33 [1.33–1.34]');
    expect(headline).toContain('| greedy | 1.00 |');
    expect(headline).toContain('| batch | tools <a&b> | seed |');
    expect(headline).toContain('| streamed | tools <a&b> | seed |');
  });

  it('states the real streamed turns, eager against wait-then-waves, and the command', () => {
    expect(headline).toContain(
      "Real streamed turns (seed 1): the batches of 7 calls written by a timed source in real time (the token model's arrivals × 0.05)",
    );
    expect(headline).toContain('Median of 3 run(s), summed per workload.');
    expect(headline).toContain('Reproduce: `pnpm bench --quick`');
    // eager 300 ms ÷ greedy 400 ms; simulated 285 ÷ 380.
    expect(headline).toContain('| tools <a&b> | 400 ms | 300 ms | 0.75 | 0.75 | 10.0 % | 0 |');
  });
});

describe('renderMarkdown', () => {
  const markdown = renderMarkdown(report);

  it('holds the strategies, the headline, the workloads and where the method is', () => {
    expect(markdown.startsWith('# toolwaves strategy benchmark\n')).toBe(true);
    expect(markdown).toContain(headlineMarkdown(report));
    expect(markdown).toContain(
      '- **all-at-once** — AI SDK ≤ 6 streamText, OpenAI Agents without a cap',
    );
    // The renderer prints the model's figure (estimateAccuracy is checked on its own).
    const off = (report.workloads[1]!.estimates.medianError * 100).toFixed(1);
    expect(markdown).toContain(
      `- **seed** — seed batches. 2 batches, 5 calls per seed; estimates off by ${off} % at the median.`,
    );
    expect(markdown).toContain(
      'the bench README (packages/bench/README.md, "What the figures are")',
    );
  });
});

describe('renderHtml', () => {
  const html = renderHtml(report);

  it('is one self-contained page: no script, no external resource, no font', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|@font-face|url\(/i);
    expect(html).not.toMatch(/\s(src|href)=/i);
    // The only URL is the SVG namespace, which is never fetched.
    const urls = html.match(/https?:\/\/[^\s"'<>]+/g) ?? [];
    expect(new Set(urls)).toEqual(new Set(['http://www.w3.org/2000/svg']));
  });

  it('draws each chart with one series per strategy', () => {
    for (const chart of ['ratio', 'stream-ratio']) {
      const start = html.indexOf(`data-chart="${chart}"`);
      expect(start, chart).toBeGreaterThan(-1);
      const svg = html.slice(start, html.indexOf('</svg>', start));
      const series = [...svg.matchAll(/data-series="([^"]*)"/g)].map((match) => match[1]);
      expect(series, chart).toEqual(strategies);
    }
  });

  it('escapes names and renders the tables of the report from its blocks', () => {
    expect(html).toContain('tools &lt;a&amp;b&gt;');
    expect(html).not.toContain('tools <a&b>');
    expect(html).toContain('<li><strong>seed</strong> — seed batches.');
    // The headline, its two per-workload tables, the real streamed turns, the retried streams.
    expect((html.match(/<table>/g) ?? []).length).toBe(5);
  });
});
