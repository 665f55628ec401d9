import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileFixture } from './fixtures/file-fixture.js';
import { startRestateFixture } from './fixtures/restate-fixture.js';
import { readLog } from './fixtures/turn-log.js';
import { generateTurn, seededRandom } from './fixtures/turn-scenario.js';

const restate = fileFixture({
  start: () => startRestateFixture(),
  stop: async (fixture) => fixture?.stop(),
  timeoutMs: 60_000,
});

describe('the same turn with the same completion order gives the same schedule', () => {
  const modes = [
    ['eager', 11],
    ['parallel', 12],
  ] as const;
  for (const [mode, seed] of modes) {
    it(`${mode} mode: restarted from its whole journal, a turn issues the same steps in the same order, runs no tool and answers alike`, async (context) => {
      const fixture = await restate.use(context);
      const dir = join(fixture.dir, `same-${mode}`);
      const calls = generateTurn(seededRandom(seed), `same-${mode}`);
      const first = await fixture.turn({
        dir,
        calls,
        mode,
        maxConcurrency: 3,
        onFailure: 'continue',
      });
      const journal = await fixture.journal(first.id);
      const journaledSteps = journal
        .filter((entry) => entry.entry_type === 'Command: Run')
        .map((entry) => entry.name);
      const output = journal.find((entry) => entry.entry_type === 'Command: Output');
      expect(output).toBeDefined();
      const before = readLog(fixture.log).filter((line) => 'dir' in line && line.dir === dir);
      const issuedFirst = before.flatMap((line) => (line.e === 'step' ? [line.name] : []));
      expect(issuedFirst).toEqual(journaledSteps);

      // The journal up to the handler's output, included (`from`), is kept: every step replays.
      const second = await fixture.restartAsNew(first.id, (output?.index ?? 1) - 1);

      const after = readLog(fixture.log)
        .filter((line) => 'dir' in line && line.dir === dir)
        .slice(before.length);
      // Every step of the first run, replayed in its order: Restate would refuse any other sequence.
      expect(after.flatMap((line) => (line.e === 'step' ? [line.name] : []))).toEqual(
        journaledSteps,
      );
      expect(after.filter((line) => line.e === 'start')).toEqual([]);
      // The whole output, durations too: the handler returns the same value on a replay.
      expect(second.results).toEqual(first.results);
    }, 60_000);
  }
});
