import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { greedyPlanner, type Planner } from '@toolwaves/planner';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BenchReport,
  defaultStrategies,
  plannerStrategy,
  renderHtml,
  runBench,
} from '../src/index.js';

/** A planner a user binds: greedy under another name. */
const userPlanner: Planner = {
  name: 'user-greedy',
  plan: (nodes, options) => ({ ...greedyPlanner().plan(nodes, options), planner: 'user-greedy' }),
};

let report: BenchReport;

beforeAll(async () => {
  report = await runBench({
    strategies: [...defaultStrategies({ optimalExpansions: 500 }), plannerStrategy(userPlanner)],
    quick: true,
    profile: {
      seeds: 2,
      sizes: [4, 8],
      realSizes: [8],
      realRepeats: 1,
      streamBudgetMs: 400,
    },
    command: 'test',
  });
}, 60_000);

const strategies = [
  'greedy',
  'ordered',
  'sequential',
  'optimal',
  'optimal-clairvoyant',
  'eager',
  'all-at-once',
  'wait-then-all-at-once',
  'consecutive-read-only',
  'global-rw-lock',
  'global-rw-lock-capped',
  'user-greedy',
];

describe('runBench on a small profile', () => {
  it("compares every strategy given, the user's planner included", () => {
    expect(report.meta.strategies.map((strategy) => strategy.name)).toEqual(strategies);
    expect(report.meta.seeds).toEqual([1, 2]);
    for (const workload of report.workloads) {
      for (const mode of ['batch', 'stream'] as const) {
        expect(workload[mode].map((result) => result.strategy)).toEqual(strategies);
        const user = workload[mode].find((result) => result.strategy === 'user-greedy')!;
        const greedy = workload[mode].find((result) => result.strategy === 'greedy')!;
        expect(user.turnMs).toEqual(greedy.turnMs);
        expect(user.versusGreedy).toMatchObject({ median: 1, min: 1, max: 1 });
      }
    }
  });

  it('plans every workload and keeps the rules', () => {
    expect(report.workloads.map((workload) => [workload.name, workload.batches])).toEqual([
      ['explore', 2],
      ['refactor', 2],
      ['mixed', 2],
      ['hot-file', 2],
      ['barriers', 2],
      ['remote', 2],
    ]);
    for (const workload of report.workloads) {
      for (const mode of ['batch', 'stream'] as const) {
        for (const result of workload[mode]) {
          // Only the all-at-once peers break the rules, so only they may beat the lower bound.
          if (result.strategy.includes('all-at-once')) continue;
          expect(result.invalidPlans, result.strategy).toBe(0);
          expect(result.conflictingOverlaps, result.strategy).toBe(0);
          expect(result.versusBound.min, result.strategy).toBeGreaterThanOrEqual(1 - 1e-9);
        }
      }
    }
  });

  it('streams the tool batches of the real sizes for real, eager against wait-then-waves', () => {
    expect(report.meta.streamLatencyScale).toBeGreaterThan(0);
    expect(report.realStreams.map((run) => `${run.workload}/${run.strategy}`)).toEqual(
      ['explore', 'refactor', 'mixed', 'hot-file', 'barriers'].flatMap((workload) => [
        `${workload}/greedy`,
        `${workload}/eager`,
      ]),
    );
    for (const run of report.realStreams) {
      expect(run).toMatchObject({ batches: 1, calls: 8, spread: 0, errors: 0 });
      const workload = report.workloads.find((candidate) => candidate.name === run.workload)!;
      const batch = workload.perBatch.find((candidate) => candidate.size === 8)!;
      const turn = batch.stream.find((result) => result.strategy === run.strategy)!.turnMs;
      expect(run.simulatedMs).toBeCloseTo(turn * report.meta.streamLatencyScale, 9);
      // The turn cannot end before the model stopped writing (scaled), whatever the machine.
      expect(run.wallMs).toBeGreaterThanOrEqual(batch.streamEndMs * report.meta.streamLatencyScale);
    }
  });
});

const hasChromium = existsSync('/usr/bin/chromium');

describe.skipIf(!hasChromium)(
  hasChromium
    ? 'report.html in headless Chromium'
    : 'report.html in headless Chromium — SKIPPED: /usr/bin/chromium is absent (apt-get install chromium)',
  () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'bench-html-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('renders every chart with one series per strategy, and fetches nothing', async () => {
      const file = join(dir, 'report.html');
      await writeFile(file, renderHtml(report));
      const browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      });
      try {
        const page = await browser.newPage();
        const requests: string[] = [];
        const errors: string[] = [];
        page.on('request', (request) => requests.push(request.url()));
        page.on('pageerror', (error) => errors.push(error.message));
        const url = pathToFileURL(file).href;
        await page.goto(url);
        expect(requests).toEqual([url]);
        expect(errors).toEqual([]);
        for (const chart of ['ratio', 'stream-ratio']) {
          const expected = strategies;
          const series = page.locator(`svg[data-chart="${chart}"] [data-series]`);
          expect(await series.count(), chart).toBe(expected.length);
          const names = await series.evaluateAll((elements) =>
            elements.map((element) => element.getAttribute('data-series')),
          );
          expect(names, chart).toEqual(expected);
          // Every series is drawn: it has a visible box on the page.
          for (const box of await series.evaluateAll((elements) =>
            elements.map((element) => element.getBoundingClientRect().width),
          )) {
            expect(box, chart).toBeGreaterThan(0);
          }
        }
        const bars = page.locator('svg[data-chart="ratio"] rect[data-group]');
        expect(await bars.count()).toBe(strategies.length * report.workloads.length);
      } finally {
        await browser.close();
      }
    }, 60_000);
  },
);
