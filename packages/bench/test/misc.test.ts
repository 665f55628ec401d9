import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../src/cli/parse-bench-args.js';
import { createProgress, formatProgress } from '../src/cli/progress.js';
import { BenchError } from '../src/index.js';
import { chooseLatencyScale } from '../src/real/run-real.js';
import { formatDuration, formatPercent, formatRatio } from '../src/report/format-figures.js';
import { blocksToHtml, blocksToMarkdown } from '../src/report/report-blocks.js';

describe('parseBenchArgs', () => {
  it('reads every flag', () => {
    expect(
      parseBenchArgs([
        '--quick',
        '--out',
        'tmp/x',
        '--seed',
        '7',
        '--max-concurrency',
        '4',
        '--no-real',
      ]),
    ).toEqual({
      quick: true,
      out: 'tmp/x',
      seed: 7,
      seeds: undefined,
      maxConcurrency: 4,
      optimalExpansions: undefined,
      tokenRate: undefined,
      real: false,
      help: false,
    });
    expect(parseBenchArgs(['--', '--help']).help).toBe(true);
    expect(parseBenchArgs([])).toMatchObject({
      quick: false,
      out: undefined,
      seed: 1,
      maxConcurrency: 8,
    });
  });

  it('reads the seeds, the token rate and the work budget of optimal, and `--flag=value`', () => {
    expect(
      parseBenchArgs(['--seeds', '5', '--token-rate=40', '--optimal-expansions', '0', '--seed=-2']),
    ).toMatchObject({ seeds: 5, tokenRate: 40, optimalExpansions: 0, seed: -2 });
  });

  it('names the flag and the value it refuses', () => {
    expect(() => parseBenchArgs(['--out', '--seed', '1'])).toThrow(
      'Expected `--out` to be followed by a value, got another option',
    );
    expect(() => parseBenchArgs(['--seeds', '0'])).toThrow(
      'Expected `--seeds` to be an integer from 1 and up, got `"0"` (string)',
    );
    expect(() => parseBenchArgs(['stray'])).toThrow(
      'Unknown option `"stray"` (string); run `pnpm bench --help`',
    );
    expect(() => parseBenchArgs(['--out'])).toThrow(
      'Expected `--out` to be followed by a value, got nothing',
    );
    expect(() => parseBenchArgs(['--seed', 'x'])).toThrow(
      'Expected `--seed` to be an integer, got `"x"` (string)',
    );
    expect(() => parseBenchArgs(['--max-concurrency', '0'])).toThrow(
      'Expected `--max-concurrency` to be an integer from 1 and up, got `"0"` (string)',
    );
    expect(() => parseBenchArgs(['--fast'])).toThrow(BenchError);
    expect(() => parseBenchArgs(['--fast'])).toThrow(
      'Unknown option `"--fast"` (string); run `pnpm bench --help`',
    );
    expect(() => parseBenchArgs(['--quik'])).toThrow(
      'Unknown option `"--quik"` (string); did you mean `--quick`? (see `pnpm bench --help`)',
    );
    expect(() => parseBenchArgs(['--token-rat=40'])).toThrow(
      'Unknown option `"--token-rat"` (string); did you mean `--token-rate`? (see `pnpm bench --help`)',
    );
  });
});

describe('progress', () => {
  it('formats a line', () => {
    expect(formatProgress({ phase: 'planning', done: 1, total: 4, detail: 'explore' }, 1500)).toBe(
      'planning 1/4 (25 %) explore · 1.5 s',
    );
  });

  it('redraws one line on a terminal, at most every redrawMs', () => {
    const writes: string[] = [];
    let now = 0;
    const progress = createProgress({
      stream: { isTTY: true, write: (text: string) => writes.push(text) },
      clock: () => now,
      redrawMs: 100,
    });
    progress.update({ phase: 'planning', done: 1, total: 10 });
    now = 50;
    progress.update({ phase: 'planning', done: 2, total: 10 });
    now = 150;
    progress.update({ phase: 'planning', done: 3, total: 10 });
    progress.finish('done');
    expect(writes).toEqual([
      '\rplanning 1/10 (10 %) · 0.0 s\x1b[K',
      '\rplanning 3/10 (30 %) · 0.1 s\x1b[K',
      '\rdone\x1b[K\n',
    ]);
  });

  it('prints plain lines elsewhere: a phase start, at most one per interval, the phase end', () => {
    const writes: string[] = [];
    let now = 0;
    const progress = createProgress({
      stream: { write: (text: string) => writes.push(text) },
      clock: () => now,
      intervalMs: 1000,
    });
    for (let done = 1; done <= 10; done++) {
      now = done * 300;
      progress.update({ phase: 'real runs', done, total: 10 });
    }
    progress.update({ phase: 'real streams', done: 1, total: 2 });
    expect(writes).toEqual([
      'real runs 1/10 (10 %) · 0.3 s\n',
      'real runs 5/10 (50 %) · 1.5 s\n',
      'real runs 9/10 (90 %) · 2.7 s\n',
      'real runs 10/10 (100 %) · 3.0 s\n',
      'real streams 1/2 (50 %) · 3.0 s\n',
    ]);
  });
});

describe('figures formatting', () => {
  it('formats durations, ratios and shares', () => {
    expect([2500, 123.4, 4.56, 0.823, 0, null].map(formatDuration)).toEqual([
      '2.50 s',
      '123 ms',
      '4.6 ms',
      '0.82 ms',
      '0 ms',
      '–',
    ]);
    expect([1.0666, Number.POSITIVE_INFINITY, null].map(formatRatio)).toEqual(['1.07', '–', '–']);
    expect([0.125, null].map(formatPercent)).toEqual(['12.5 %', '–']);
  });
});

describe('chooseLatencyScale', () => {
  it('takes the largest round scale that fits the budget', () => {
    expect(chooseLatencyScale({ simulatedMs: 5_000, budgetMs: 10_000 })).toBe(1);
    expect(chooseLatencyScale({ simulatedMs: 100_000, budgetMs: 12_000 })).toBe(0.1);
    expect(chooseLatencyScale({ simulatedMs: 100_000, budgetMs: 16_000 })).toBe(0.15);
    expect(chooseLatencyScale({ simulatedMs: 1e9, budgetMs: 1 })).toBe(0.01);
  });
});

describe('markdown', () => {
  it('makes tables, escaping pipes', () => {
    expect(blocksToMarkdown([{ kind: 'table', headers: ['a', 'b'], rows: [['x|y', '1']] }])).toBe(
      '| a | b |\n| :-- | --: |\n| x\\|y | 1 |',
    );
  });

  it('turns report blocks into HTML, escaping text', () => {
    const html = blocksToHtml([
      { kind: 'heading', level: 2, text: 'Title' },
      { kind: 'paragraph', text: 'Text with `code` and **bold** <b>.' },
      { kind: 'list', items: ['one', 'two'] },
      { kind: 'table', headers: ['a', 'b'], rows: [['x|y', '1']] },
    ]);
    expect(html).toBe(
      [
        '<h2>Title</h2>',
        '<p>Text with <code>code</code> and <strong>bold</strong> &lt;b&gt;.</p>',
        '<ul><li>one</li><li>two</li></ul>',
        '<table><thead><tr><th class="left">a</th><th class="right">b</th></tr></thead><tbody><tr><td class="left">x|y</td><td class="right">1</td></tr></tbody></table>',
      ].join('\n'),
    );
  });
});

//END
