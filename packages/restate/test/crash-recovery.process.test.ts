import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashRounds } from './fixtures/crash-rounds.js';
import { type RestateFixture, startRestateFixture } from './fixtures/restate-fixture.js';

const SEED = 20261201;
const CRASHES = 50;

let fixture: RestateFixture | undefined;
beforeAll(async () => {
  fixture = await startRestateFixture();
}, 60_000);
afterAll(async () => {
  await fixture?.stop();
});

describe('durable turns on a real Restate server, the service SIGKILLed at seeded points', () => {
  it(`completes every turn, never runs a finished call twice, never overlaps conflicting calls (≥ ${CRASHES} crashes)`, async (context) => {
    if (fixture === undefined) return context.skip();
    const report = await crashRounds({ fixture, seed: SEED, crashes: CRASHES, prefix: 'local-' });
    const { tally } = report;
    console.log(
      `restate crash test: ${report.turns} turns, ${report.crashes} crashes, ${tally.rerun} calls re-run, ${tally.cutAndUnknown} non-idempotent calls cut mid-run and answered outcome unknown, ${tally.skipped} calls skipped after one`,
    );
    expect(report.problems).toEqual([]);
    expect(report.crashes).toBeGreaterThanOrEqual(CRASHES);
    expect(tally.rerun).toBeGreaterThan(0);
    expect(tally.cutAndUnknown).toBeGreaterThan(0);
  }, 300_000);
});
