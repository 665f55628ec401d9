import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { SessionReport } from '../src/session-report.js';
import { demoCommand } from './demo-command.js';

const run = promisify(execFile);
const demoDir = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env, OPENAI_API_KEY: '', NO_COLOR: '1' };

// At once: each run is a process of its own, in a temporary workspace of its own, and the test
// mostly waits on it.
describe.concurrent('the demo command', () => {
  it('runs end to end, streamed by default, and prints a JSON report with both comparisons', async () => {
    const [node, args] = await demoCommand([
      '--latency',
      '0',
      '--tokens-per-second',
      '100000',
      '--json',
      '--compare',
    ]);
    const { stdout } = await run(node, args, { cwd: demoDir, env });
    const report = JSON.parse(stdout) as SessionReport;
    expect(existsSync(report.workspace)).toBe(false); // the temp workspace is removed at the end
    try {
      expect(report.model).toMatch(/^scripted/);
      expect(report.turns).toHaveLength(5);
      expect(report.turns.flatMap((turn) => turn.calls).every((call) => !call.isError)).toBe(true);
      expect(report.stream).toBe(true);
      expect(report.tokensPerSecond).toBe(100_000);
      expect(report.turns[1]?.waves).toEqual([]); // streamed: no waves
      expect(report.streaming.map((row) => [row.strategy, row.turns, row.errors])).toEqual([
        ['whole turn + greedy waves', 5, 0],
        ['streamed + eager', 5, 0],
      ]);
      expect(report.comparison.map((row) => row.planner)).toEqual([
        'sequential',
        'greedy',
        'ordered',
        'optimal',
      ]);
    } finally {
      await rm(report.workspace, { recursive: true, force: true });
    }
  }, 60_000);

  it('with --no-stream, runs whole turns in waves; --json FILE, relative to where pnpm was run, gets the report', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolwaves-json-'));
    try {
      const [node, args] = await demoCommand([
        '--no-stream',
        '--latency',
        '0',
        '--tokens-per-second',
        '100000',
        '--json',
        'report.json',
      ]);
      const { stdout } = await run(node, args, { cwd: demoDir, env: { ...env, INIT_CWD: dir } });
      const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as SessionReport;
      expect(report.stream).toBe(false);
      expect(report.turns[1]?.waves).toEqual([[0, 1, 3, 4, 5], [2]]);
      expect(report.turns.flatMap((turn) => turn.calls).every((call) => !call.isError)).toBe(true);
      expect(report.streaming).toEqual([]);
      expect(report.comparison).toEqual([]); // the comparisons only run with --compare
      // the live view went to stdout, its header true to the mode, its calls named as in the report
      const header = stdout.split('\n')[2];
      expect(header).toMatch(/^whole turns in waves, planner: greedy · mode: parallel/);
      expect(report.turns[1]?.calls.map((call) => call.call)).toEqual([
        '#2.1',
        '#2.2',
        '#2.3',
        '#2.4',
        '#2.5',
        '#2.6',
      ]);
      for (const call of report.turns[1]?.calls ?? []) expect(stdout).toContain(`✓ ${call.call} `);
      expect(stdout).toContain(`report: written to ${join(dir, 'report.json')} (JSON)`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses a bad flag with exit code 2, naming it', async () => {
    const [node, args] = await demoCommand(['--max-concurrency', '0']);
    const failure = await run(node, args, { cwd: demoDir, env }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain(
      'Expected `--max-concurrency` to be an integer from 1 and up, got `"0"` (string)',
    );
  }, 60_000);

  it('prints its help', async () => {
    const [node, args] = await demoCommand(['--help']);
    const { stdout } = await run(node, args, { cwd: demoDir, env });
    expect(stdout).toContain('Usage: pnpm demo [options]');
    expect(stdout).toContain('--max-concurrency N');
  }, 60_000);
});
