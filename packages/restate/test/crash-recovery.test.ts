import { join } from 'node:path';
import type { ToolResult } from '@toolwaves/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RestateFixture, startRestateFixture } from './fixtures/restate-fixture.js';
import { checkTurn, type TurnTally } from './fixtures/turn-checks.js';
import { readLog } from './fixtures/turn-log.js';
import { generateTurn, seededRandom } from './fixtures/turn-scenario.js';

const SEED = 20261201;
const POLICIES = ['continue', 'skip-dependents', 'stop'] as const;
const CRASHES = 50;
const TURNS_AT_ONCE = 4;
/** At most this many crashes per round of turns (1..N, seeded): then the round may finish. */
const CRASHES_PER_ROUND = 6;

let fixture: RestateFixture | undefined;
beforeAll(async () => {
  fixture = await startRestateFixture();
}, 60_000);
afterAll(async () => {
  await fixture?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tool starts logged so far (the crash points are counted in them, not in time). */
const toolStarts = (log: string): number =>
  readLog(log).filter((line) => line.e === 'start').length;

/** Whether a counter bump has started since log line `from` and not ended yet. */
function bumpRunning(log: string, from: number): boolean {
  const running = new Set<string>();
  for (const line of readLog(log).slice(from)) {
    if (line.e === 'start' && line.tool === 'bump_counter') running.add(`${line.dir} ${line.call}`);
    if (line.e === 'end') running.delete(`${line.dir} ${line.call}`);
  }
  return running.size > 0;
}

/** Resolves once `count` more tools have started than `from`, or `finished()` holds. */
async function afterStarts(options: {
  log: string;
  from: number;
  count: number;
  finished: () => boolean;
}): Promise<void> {
  while (!options.finished() && toolStarts(options.log) < options.from + options.count)
    await sleep(5);
}

describe('durable turns on a real Restate server, the service SIGKILLed at seeded points', () => {
  it(`completes every turn, never runs a finished call twice, never overlaps conflicting calls (≥ ${CRASHES} crashes)`, async (context) => {
    if (fixture === undefined) return context.skip();
    const { service } = fixture;
    const random = seededRandom(SEED);
    const tally: TurnTally = { rerun: 0, cutAndUnknown: 0, skipped: 0 };
    const problems: string[] = [];
    let crashes = 0;
    let turns = 0;
    let round = 0;
    while (crashes < CRASHES) {
      const requests = Array.from({ length: TURNS_AT_ONCE }, (_, k) => ({
        dir: join(fixture?.dir ?? '', `r${round}-t${k}`),
        calls: generateTurn(random, `r${round}t${k}`),
        mode: (turns + k) % 2 === 0 ? ('eager' as const) : ('parallel' as const),
        maxConcurrency: 2 + Math.floor(random() * 3),
        onFailure: POLICIES[Math.floor(random() * POLICIES.length)] ?? 'continue',
      }));
      let finished = false;
      const running = Promise.all(requests.map((request) => fixture?.turn(request)));
      const settle = () => {
        finished = true;
      };
      running.then(settle, settle);
      // Crash points: the first of a round while a counter bump runs (the non-idempotent case);
      // the others after 0–3 more tool starts (0: during the replay), then 0–15 ms more.
      const limit = 1 + Math.floor(random() * CRASHES_PER_ROUND);
      for (let inRound = 0; !finished && inRound < limit; inRound++) {
        if (inRound === 0) {
          const from = readLog(fixture.log).length;
          while (!finished && !bumpRunning(fixture.log, from)) await sleep(2);
        } else {
          const count = Math.floor(random() * 4);
          await afterStarts({
            log: fixture.log,
            from: toolStarts(fixture.log),
            count,
            finished: () => finished,
          });
          await sleep(Math.floor(random() * 16));
        }
        if (finished) break;
        await service.kill();
        crashes++;
        await service.start();
      }
      const done = await running;
      const log = readLog(fixture.log);
      requests.forEach((request, k) => {
        const results = done[k]?.results as ToolResult[];
        for (const problem of checkTurn({ ...request, results }, log, tally)) {
          problems.push(
            `round ${round} turn ${k} (${request.mode}, ${request.onFailure}): ${problem}`,
          );
        }
      });
      turns += TURNS_AT_ONCE;
      round++;
    }
    console.log(
      `restate crash test: ${turns} turns, ${crashes} crashes, ${tally.rerun} calls re-run, ${tally.cutAndUnknown} non-idempotent calls cut mid-run and answered outcome unknown, ${tally.skipped} calls skipped after one`,
    );
    expect(problems).toEqual([]);
    expect(crashes).toBeGreaterThanOrEqual(CRASHES);
    expect(tally.rerun).toBeGreaterThan(0);
    expect(tally.cutAndUnknown).toBeGreaterThan(0);
  }, 300_000);
});
