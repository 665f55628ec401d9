import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { restateServerBinary } from '../src/restate-dev-server.js';
import { demoCommand } from './demo-command.js';

const run = promisify(execFile);
const demoDir = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env, OPENAI_API_KEY: '', NO_COLOR: '1' };
const binary = restateServerBinary();
if (binary === undefined) {
  console.warn(
    `demo: skipping the --durable test, no restate-server binary for ${process.platform}-${process.arch} in node_modules (@restatedev/restate-server)`,
  );
}

/**
 * The calls of the demo's turn that may run again after a crash, by the scenario: the reads, and
 * the edit and the write (the fs write tools declare `idempotent: true`); not the check.
 */
const MAY_RERUN = new Set(['d1', 'd2', 'd3', 'd4', 'd5', 'd7', 'd8']);

describe.skipIf(binary === undefined)('pnpm demo --durable', () => {
  it('runs the turn on Restate across two SIGKILLs: each call answered once, from the journal, run again or outcome unknown', async () => {
    const [command, args] = await demoCommand(['--durable']);
    const { stdout } = await run(command, args, { cwd: demoDir, env });
    const kills = [...stdout.matchAll(/SIGKILL pid \d+ .* running then: (.*)$/gm)].map((match) =>
      match[1] === 'none' ? [] : (match[1] ?? '').split(', '),
    );
    expect(kills).toHaveLength(2);
    // The second crash is timed on the check's start: it runs alone, so it is the one running.
    expect(kills[1]).toEqual(['d6']);
    const rows = new Map(
      [...stdout.matchAll(/^(d\d)\s+.+?\s{2,}(\d+)\s{2,}(.+?)\s{2,}/gm)].map((match) => [
        match[1] ?? '',
        { runs: Number(match[2]), what: match[3] ?? '' },
      ]),
    );
    expect([...rows.keys()]).toEqual(['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8']);
    const cut = new Set(kills.flat());
    for (const [id, row] of rows) {
      if (cut.has(id) && MAY_RERUN.has(id)) {
        expect(row, id).toEqual({ runs: 2, what: expect.stringMatching(/^ran again/) });
      } else if (cut.has(id)) {
        expect(row, id).toEqual({ runs: 1, what: expect.stringMatching(/^outcome unknown/) });
      } else if (MAY_RERUN.has(id) && row.runs === 2) {
        // Its tool had returned when the service was killed, but the journal had not yet recorded
        // its end (steps are at least once): a call that may run twice runs again, and says so.
        expect(row.what, id).toMatch(/^ran again/);
      } else {
        expect(row.runs, id).toBe(1);
        expect(row.what, id).toMatch(/^answered from the journal|^ran after a restart/);
      }
    }
    // After the check (which runs alone), the last two calls could only run after the restart.
    expect(rows.get('d7')?.what).toMatch(/^ran after a restart/);
    expect(rows.get('d8')?.what).toMatch(/^ran after a restart/);
    expect(stdout).toContain('  return Math.round(amount * (1 + TAX_RATE) * 100) / 100;');
    expect(stdout).toMatch(/src\/discount\.ts now:\nimport \{ applyTax \} from '\.\/price\.js';/);
  }, 120_000);
});
