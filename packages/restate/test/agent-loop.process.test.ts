import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedStep } from './fixtures/agent-service.js';
import { fileFixture } from './fixtures/file-fixture.js';
import { startRestateFixture } from './fixtures/restate-fixture.js';
import { checkTurn, type TurnTally } from './fixtures/turn-checks.js';
import { readLog } from './fixtures/turn-log.js';

const restate = fileFixture({
  start: () => startRestateFixture(),
  stop: async (fixture) => fixture?.stop(),
  timeoutMs: 60_000,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('an AI SDK agent loop on Restate, the tools of each turn scheduled by toolwaves', () => {
  it('finishes after the service is SIGKILLed mid-turn: the model is asked once per step, finished calls do not run again', async (context) => {
    const fixture = await restate.use(context);
    const dir = join(fixture.dir, 'agent');
    const script: ScriptedStep[] = [
      {
        calls: [
          // Its first run waits at a gate that never opens: the crash lands while it runs.
          {
            id: 's0-0',
            name: 'fenced_write',
            input: { path: 'a', text: 'A', ms: 5, holdFirstRun: true },
          },
          { id: 's0-1', name: 'read_note', input: { path: 'b', ms: 5 } },
          { id: 's0-2', name: 'charge', input: { account: 'x', amount: 5, ms: 5 } },
          { id: 's0-3', name: 'write_note', input: { path: 'b', text: 'B', ms: 5 } },
        ],
      },
      {
        calls: [
          { id: 's1-0', name: 'read_note', input: { path: 'a', ms: 5 } },
          { id: 's1-1', name: 'bump_counter', input: { name: 'n', ms: 5 } },
          { id: 's1-2', name: 'read_note', input: { path: 'b', ms: 5 } },
        ],
      },
      { text: 'done: a and b written, x charged once' },
    ];
    const running = fixture.agent({ dir, prompt: 'write the notes', script });
    const log = fixture.log;
    const held = () =>
      readLog(log).some((line) => line.e === 'start' && line.dir === dir && line.call === 's0-0');
    while (!held()) await sleep(5);
    await fixture.service.kill();
    await fixture.service.start();
    const answer = await running;

    expect(answer.text).toBe('done: a and b written, x charged once');
    const lines = readLog(fixture.log);
    // One model call per step: the first was journaled before the crash and answered from there.
    expect(
      lines.flatMap((line) => (line.e === 'model' && line.dir === dir ? [line.step] : [])),
    ).toEqual([0, 1, 2]);
    // The turns one after another, as one sequence in model order (a later turn reads what an
    // earlier one wrote).
    const turn = {
      dir,
      calls: script.flatMap((step) => step.calls ?? []),
      results: answer.turns.flat(),
      maxConcurrency: 4,
      onFailure: 'continue' as const,
    };
    const tally: TurnTally = { rerun: 0, cutAndUnknown: 0, leaseLost: 0, skipped: 0 };
    expect(checkTurn(turn, lines, tally)).toEqual([]);
    expect(tally.rerun).toBeGreaterThanOrEqual(1);
    // The held call ran again after the crash; the others of its turn that the crash cut off
    // ran again too (idempotent or read-only), each answered from its last run (checked above).
    expect(answer.turns[0]?.[0]?.content).toBe('wrote a (run 2)');
    expect(answer.turns[1]?.map((result) => result.content)).toEqual([
      'a=A (run 1)',
      'n=1 (run 1)',
      'b=B (run 1)',
    ]);
    expect(readFileSync(join(dir, 'notes', 'a'), 'utf8')).toBe('A');
  }, 120_000);
});
