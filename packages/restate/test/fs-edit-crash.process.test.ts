import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolCall } from '@toolwaves/core';
import { describe, expect, it } from 'vitest';
import { fileFixture } from './fixtures/file-fixture.js';
import { startRestateFixture } from './fixtures/restate-fixture.js';
import { runsOf } from './fixtures/turn-checks.js';

const restate = fileFixture({
  start: () => startRestateFixture(),
  stop: async (fixture) => fixture?.stop(),
  timeoutMs: 60_000,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the fs tools in a durable turn', () => {
  it('an edit_file SIGKILLed after it wrote, before its step was journaled, runs again and answers success: applied once', async (context) => {
    const fixture = await restate.use(context);
    const dir = join(fixture.dir, 'fs-edit');
    const file = join(dir, 'ws', 'a.ts');
    mkdirSync(join(dir, 'ws'), { recursive: true });
    mkdirSync(join(dir, 'hold'), { recursive: true });
    writeFileSync(file, 'const x = 1;\n');
    // e0's first run is held after its write: the crash lands between the write and its step
    writeFileSync(join(dir, 'hold', 'e0'), '');
    const calls: ToolCall[] = [
      {
        id: 'e0',
        name: 'edit_file',
        input: { path: 'a.ts', old_string: 'x = 1', new_string: 'x = 2' },
      },
      // the same file: it waits for e0's journaled end, across the crash too
      {
        id: 'e1',
        name: 'edit_file',
        input: { path: 'a.ts', old_string: 'x = 2', new_string: 'x = 3' },
      },
    ];
    const turn = fixture.turn({
      dir,
      calls,
      mode: 'eager',
      maxConcurrency: 2,
      onFailure: 'continue',
    });
    while (readFileSync(file, 'utf8') !== 'const x = 2;\n') await sleep(5);
    await fixture.service.kill();
    await fixture.service.start();
    const { id, results } = await turn;

    expect(
      results.map(({ toolCallId, content, isError }) => ({ toolCallId, content, isError })),
    ).toEqual([
      {
        toolCallId: 'e0',
        content: `edited a.ts: already applied by an earlier run of this call (idempotency key ${id}/e0/1); nothing written`,
        isError: false,
      },
      { toolCallId: 'e1', content: 'edited a.ts: replaced 1 occurrence', isError: false },
    ]);
    // e0 ran twice (cut off, then re-run), e1 once, after it; each edit landed once
    expect(runsOf(dir, 'e0')).toHaveLength(2);
    expect(runsOf(dir, 'e1')).toHaveLength(1);
    expect(readFileSync(file, 'utf8')).toBe('const x = 3;\n');
  }, 120_000);
});
