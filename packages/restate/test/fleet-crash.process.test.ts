import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolCall } from '@toolwaves/core';
import { describe, expect, it } from 'vitest';
import {
  hasRedisServer,
  type RedisServer,
  redisMissing,
  startRedisServer,
} from '../../../test-support/redis-server.js';
import { CRASH_PHASES } from './fixtures/crash-phases.js';
import { crashRounds } from './fixtures/crash-rounds.js';
import { fileFixture } from './fixtures/file-fixture.js';
import { startRestateFixture } from './fixtures/restate-fixture.js';
import { checkTurn, type TurnTally } from './fixtures/turn-checks.js';
import { readLog } from './fixtures/turn-log.js';
import { notesFence, tokensOf } from './fixtures/turn-tools.js';

/**
 * Short, so the turns replayed after a crash wait little for the dead process's leases; long
 * enough that a loaded machine renews it in time (a 1.5 s lease was lost with the load at 25 on
 * two cores: the checks then accept the "outcome unknown" answer, and count it).
 */
const LEASE_MS = 3000;
/** One crash aimed at each phase of a turn (`CRASH_PHASES`), the held call above besides. */
const PER_PHASE = 1;
const CRASHES = PER_PHASE * CRASH_PHASES.length;

let redis: RedisServer | undefined;
const restate = fileFixture({
  async start() {
    if (!hasRedisServer()) {
      console.warn(redisMissing('restate: the fleet-lock tests'));
      return undefined;
    }
    redis = await startRedisServer();
    return startRestateFixture({
      fleet: { url: redis.url, namespace: `restate-${randomUUID()}`, leaseMs: LEASE_MS },
    });
  },
  async stop(fixture) {
    await fixture?.stop();
    await redis?.stop();
  },
  timeoutMs: 60_000,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('fleet locks (@toolwaves/redis) across a crash of a durable turn', () => {
  it('a call SIGKILLed while it holds its grant runs again under a newer token once the lease expired; its late write is refused', async (context) => {
    const fixture = await restate.use(context);
    const dir = join(fixture.dir, 'held');
    const calls: ToolCall[] = [
      // Its first run stops after claiming the note, before its commit: the crash lands there.
      {
        id: 'h0',
        name: 'fenced_write',
        input: { path: 'a', text: 'h0', ms: 5, holdFirstRun: true },
      },
      { id: 'h1', name: 'read_note', input: { path: 'a', ms: 5 } },
      { id: 'h2', name: 'fenced_write', input: { path: 'b', text: 'h2', ms: 5 } },
      { id: 'h3', name: 'bump_counter', input: { name: 'n', ms: 5 } },
      { id: 'h4', name: 'read_note', input: { path: 'b', ms: 5 } },
    ];
    const request = {
      dir,
      calls,
      mode: 'eager',
      maxConcurrency: 3,
      onFailure: 'continue',
    } as const;
    const turn = fixture.turn(request);
    while (tokensOf(dir, 'h0').length === 0) await sleep(5);
    await fixture.service.kill();
    await fixture.service.start();
    const { results } = await turn;

    const tally: TurnTally = { rerun: 0, cutAndUnknown: 0, leaseLost: 0, skipped: 0 };
    expect(checkTurn({ ...request, results }, readLog(fixture.log), tally)).toEqual([]);
    expect(results.map((result) => result.content)).toEqual([
      expect.stringMatching(/^wrote a under token \d+ \(run 2\)$/),
      'a=h0 (run 1)',
      // h2 runs beside h0: the kill may land after its write and before the journal recorded its
      // end, and then it runs again (steps are at least once; a fenced write may run twice).
      expect.stringMatching(/^wrote b under token \d+ \(run [12]\)$/),
      'n=1 (run 1)',
      'b=h2 (run 1)',
    ]);
    // The re-run was granted again (the crashed run's grant, never released, ran out with its
    // lease), under a newer token.
    const [crashed, rerun] = tokensOf(dir, 'h0');
    expect(rerun).toBeGreaterThan(crashed ?? Number.POSITIVE_INFINITY);
    // The crashed run's write, had it landed late (a frozen process thawed, a request in flight):
    // the fenced commit refuses its token, and the note keeps the re-run's text.
    const late = notesFence(dir).commit(
      { keys: ['note:/a'], token: crashed, what: '`a`' },
      async () => writeFileSync(join(dir, 'notes', 'a'), 'late'),
    );
    await expect(late).rejects.toMatchObject({ code: 'stale_token' });
    expect(readFileSync(join(dir, 'notes', 'a'), 'utf8')).toBe('h0');
  }, 120_000);

  it(`turns with fleet locks complete across crashes, each replay making the same decisions (≥ ${CRASHES} crashes)`, async (context) => {
    const fixture = await restate.use(context);
    const report = await crashRounds({
      fixture,
      seed: 20261202,
      crashesPerPhase: PER_PHASE,
      prefix: 'fleet-',
      fenced: true,
    });
    console.log(
      `restate fleet crash test: ${report.turns} turns, ${report.crashes} crashes (${JSON.stringify(report.phases)}), ${report.tally.rerun} calls re-run, ${report.tally.cutAndUnknown} cut mid-run and answered outcome unknown, ${report.tally.leaseLost} leases lost to a stalled process`,
    );
    expect(report.problems).toEqual([]);
    expect(report.crashes).toBeGreaterThanOrEqual(CRASHES);
    for (const phase of CRASH_PHASES)
      expect(report.phases[phase], phase).toBeGreaterThanOrEqual(PER_PHASE);
    expect(report.tally.rerun).toBeGreaterThan(0);
  }, 300_000);
});
