import { describe, expect, it } from 'vitest';
import { CRASH_PHASES } from './fixtures/crash-phases.js';
import { crashRounds } from './fixtures/crash-rounds.js';
import { fileFixture } from './fixtures/file-fixture.js';
import { startRestateFixture } from './fixtures/restate-fixture.js';

const SEED = 20261201;
/** Crashes aimed at each of the phases of a turn (`CRASH_PHASES`): 18 in all, at the least. */
const PER_PHASE = 3;
const CRASHES = PER_PHASE * CRASH_PHASES.length;

const restate = fileFixture({
  start: () => startRestateFixture(),
  stop: async (fixture) => fixture?.stop(),
  timeoutMs: 60_000,
});

describe('durable turns on a real Restate server, the service SIGKILLed in every phase of a turn', () => {
  it(`completes every turn, never runs a finished call twice, never overlaps conflicting calls (≥ ${CRASHES} crashes)`, async (context) => {
    const fixture = await restate.use(context);
    const report = await crashRounds({
      fixture,
      seed: SEED,
      crashesPerPhase: PER_PHASE,
      prefix: 'local-',
    });
    const { tally } = report;
    console.log(
      `restate crash test: ${report.turns} turns, ${report.crashes} crashes (${JSON.stringify(report.phases)}), ${tally.rerun} calls re-run, ${tally.cutAndUnknown} non-idempotent calls cut mid-run and answered outcome unknown, ${tally.skipped} calls skipped after one`,
    );
    expect(report.problems).toEqual([]);
    expect(report.crashes).toBeGreaterThanOrEqual(CRASHES);
    for (const phase of CRASH_PHASES)
      expect(report.phases[phase], phase).toBeGreaterThanOrEqual(PER_PHASE);
    expect(tally.rerun).toBeGreaterThan(0);
    expect(tally.cutAndUnknown).toBeGreaterThan(0);
  }, 300_000);
});
