import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileFixture } from './fixtures/file-fixture.js';
import { startRestateFixture } from './fixtures/restate-fixture.js';
import { readLog } from './fixtures/turn-log.js';

const restate = fileFixture({
  start: () => startRestateFixture(),
  stop: async (fixture) => fixture?.stop(),
  timeoutMs: 60_000,
});

describe("a turn's hard error", () => {
  it('fails the invocation for good (a terminal error naming the cause), without retrying it', async (context) => {
    const fixture = await restate.use(context);
    const dir = join(fixture.dir, 'hard-error');
    const calls = [
      { id: 'h0', name: 'write_note', input: { path: 'a', text: 'one', ms: 2 } },
      { id: 'h1', name: 'bump_counter', input: { name: 'n', ms: 2 } },
      { id: 'h2', name: 'read_note', input: { path: 'a', ms: 2 } },
    ];
    const turn = fixture.turn({
      dir,
      calls,
      mode: 'eager',
      maxConcurrency: 2,
      onFailure: 'continue',
      abortOn: 'bump_counter',
    });
    await expect(turn).rejects.toThrow(
      /The turn failed \(aborted\): .*no bump_counter in this turn/,
    );
    // One run of the handler: a retried invocation would have run the write again.
    const ran = readLog(fixture.log).filter((line) => line.e === 'start' && line.dir === dir);
    expect(ran.map((line) => (line.e === 'start' ? line.call : ''))).toEqual(['h0']);
  }, 60_000);
});
