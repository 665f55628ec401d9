import { describe, expect, it } from 'vitest';
import { headlineMarkdown, renderHtml, renderJson, renderMarkdown } from '../src/index.js';
import { headlineFindings } from '../src/report/headline-findings.js';
import { overallResults } from '../src/report/overall-results.js';
import { HEADLINE_END, HEADLINE_START, replaceHeadline } from '../src/report/replace-headline.js';
import { reportFixture } from './report-fixture.js';

const report = reportFixture();
const planners = ['greedy', 'ordered', 'sequential', 'proving'];

describe('renderJson', () => {
  it('has the documented shape, numbers rounded to 4 decimals', () => {
    const json = JSON.parse(renderJson(report));
    expect(Object.keys(json)).toEqual(['meta', 'workloads', 'scaling', 'realRuns', 'gantt']);
    expect(json.workloads.map((w: { name: string }) => w.name)).toEqual(['tools <a&b>', 'seed']);
    expect(json.workloads[1].batches).toBe(2);
    for (const workload of json.workloads) {
      expect(workload.results.map((r: { planner: string }) => r.planner)).toEqual(planners);
      for (const result of workload.results) {
        for (const key of [
          'planner',
          'waves',
          'makespanMs',
          'lowerBoundMs',
          'ratio',
          'planMs',
          'proven',
        ]) {
          expect(result).toHaveProperty(key);
        }
        expect(result.ratio).toBe(Math.round(result.ratio * 1e4) / 1e4);
      }
    }
    expect(json.workloads[0].results[3].proven).toBe(0);
    expect(json.workloads[1].results[3].proven).toBe(1);
    expect(json.workloads[0].results[0].proven).toBeNull();
    expect(json.scaling).toHaveLength(12);
    expect(json.realRuns).toHaveLength(4);
  });
});

describe('headlineMarkdown', () => {
  const headline = headlineMarkdown(report);

  it('has a row per workload and an overall row, with ratios to the lower bound and to greedy', () => {
    expect(headline).toContain(
      '| workload | batches (calls) | greedy ÷ LB | ordered ÷ LB | sequential ÷ LB | proving ÷ LB | ordered ÷ greedy | sequential ÷ greedy | proving ÷ greedy |',
    );
    const overall = overallResults(report.workloads);
    const row = headline.split('\n').find((line) => line.startsWith('| **all** |'))!;
    const cells = row.split('|').map((cell) => cell.trim());
    expect(cells[2]).toBe('3 (12)');
    expect(cells[3]).toBe(overall[0]!.ratio.toFixed(2));
    expect(cells[8]).toBe(overall[2]!.versusRatio!.toFixed(2));
    expect(headline).toContain('| tools <a&b> | 1 (7) |');
  });

  it('states the seed-model wave check, rule violations, proofs, real runs and the command', () => {
    expect(headline).toMatch(/on 2 batches: greedy 0, ordered \d+, sequential \d+, proving 0\./);
    expect(headline).toContain(
      'Plans breaking rules 1–4 (`verifyPlan`): greedy 0, ordered 0, sequential 0, proving 0.',
    );
    expect(headline).toContain(
      '- proving: plans proven optimal — tools <a&b> 0.0 %, seed 100.0 %.',
    );
    expect(headline).not.toContain('- greedy: plans proven');
    expect(headline).toContain('Real runs: the batches of 7 calls dispatched');
    expect(headline).toContain(
      'latency injected at 0.1 × the sampled durations, median of 3 run(s)',
    );
    expect(headline).toContain('| tools <a&b> | 30 ms | 1.33 | 1.67 | 2.00 | 15.0 % | 0 |');
    expect(headline).toContain('Reproduce: `pnpm bench --quick`');
  });
});

describe('headlineFindings', () => {
  it('says in words how each planner compares with greedy, with the bound, and planning time', () => {
    expect(headlineFindings(report)).toEqual([
      '- **ordered** vs greedy: makespan +0.0 % overall; equal on tools <a&b>, seed; faster on 0 batches, slower on 0.',
      '- **sequential** vs greedy: makespan +33.7 % overall; largest on tools <a&b> (+45.4 %); faster on 0 batches, slower on 2.',
      '- **proving** vs greedy: makespan +0.0 % overall; equal on tools <a&b>, seed; faster on 0 batches, slower on 0.',
      '- Distance from the lower bound over all workloads (makespan ÷ LB): greedy 1.12, ordered 1.12, sequential 1.49, proving 1.12.',
      '- Mean planning time per batch: greedy 10 µs, ordered 10 µs, sequential 10 µs, proving 10 µs.',
    ]);
  });
});

describe('renderMarkdown', () => {
  const markdown = renderMarkdown(report);

  it('holds the headline, a table per workload, the Gantt batch, scaling, real runs and the method', () => {
    expect(markdown.startsWith('# toolwaves planner benchmark\n')).toBe(true);
    expect(markdown).toContain(headlineMarkdown(report));
    expect(markdown).toContain('### tools <a&b>');
    expect(markdown).toContain('### seed');
    expect(markdown).toContain('## One batch, planner by planner');
    expect(markdown).toMatch(/\| 1000 \| 1\.0 ms \| 2\.0 ms \| 3\.0 ms \| skipped \|/);
    expect(markdown).toContain('Skipped beyond: proving: took 2000 ms at 100 calls (cap 1000 ms).');
    expect(markdown).toContain(
      '| tools <a&b> | sequential | 1 | 7 | 50 ms | 46 ms | 1.09 | 10.0 % | 0 |',
    );
    expect(markdown).toContain('| read_file | 40 ms | 0.6 |');
    expect(markdown).toContain('| grep | 150 ms | 0.8 |');
  });

  it('shows the waves of the Gantt batch per planner', () => {
    expect(markdown).toContain('| sequential |');
    expect(markdown).toMatch(/\| greedy \| \d+ ms \| \[0,1,3,5,6\] \[2\] \[4\] \|/);
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

  it('draws each chart with one series per planner', () => {
    for (const chart of ['ratio', 'gantt', 'scaling', 'real']) {
      const start = html.indexOf(`data-chart="${chart}"`);
      expect(start, chart).toBeGreaterThan(-1);
      const svg = html.slice(start, html.indexOf('</svg>', start));
      const series = [...svg.matchAll(/data-series="([^"]*)"/g)].map((match) => match[1]);
      expect(series, chart).toEqual(planners);
    }
  });

  it('escapes names and keeps the tables of the markdown report', () => {
    expect(html).toContain('tools &lt;a&amp;b&gt;');
    expect(html).not.toContain('tools <a&b>');
    expect(html).toContain('<h3>seed</h3>');
    expect((html.match(/<table>/g) ?? []).length).toBeGreaterThanOrEqual(7);
  });
});

describe('replaceHeadline', () => {
  it('replaces what is between the markers and keeps the rest', () => {
    const readme = `# bench\n\nintro\n\n${HEADLINE_START}\nold table\n${HEADLINE_END}\n\nafter\n`;
    expect(replaceHeadline({ readme, headline: 'new table\n' })).toBe(
      `# bench\n\nintro\n\n${HEADLINE_START}\n\nnew table\n\n${HEADLINE_END}\n\nafter\n`,
    );
  });

  it('refuses a README without the markers', () => {
    expect(() => replaceHeadline({ readme: '# bench\n', headline: 'x' })).toThrow(
      `Expected the README to hold \`${HEADLINE_START}\` followed by \`${HEADLINE_END}\``,
    );
  });
});
