import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolContext } from '@toolwaves/core';
import { describe, expect, it } from 'vitest';
import { context, fsFixture } from './fixture.js';

/**
 * A context whose `markCommitted` records, at the moment it is called, what `a.txt` and `b.txt`
 * hold (or that they are missing): the mark comes once, when the fence passed, right before the
 * effect (so a lease lost during the effect still answers the tool's own result).
 */
function recording(root: string, token?: number) {
  const marks: string[] = [];
  const read = (name: string) => {
    try {
      return readFileSync(join(root, name), 'utf8');
    } catch {
      return '(none)';
    }
  };
  const ctx: ToolContext = {
    ...context('m'),
    ...(token === undefined ? {} : { fencingToken: token }),
    markCommitted: () => {
      marks.push(`a=${JSON.stringify(read('a.txt'))} b=${JSON.stringify(read('b.txt'))}`);
    },
  };
  return { ctx, marks: async () => marks };
}

describe('markCommitted: every fs write tool calls it once its commit passed the fence', () => {
  it('write_file, edit_file, move_file, delete_file: once each, right before the effect', async () => {
    const fx = await fsFixture({ tree: { 'a.txt': 'a\n' } });
    // [tool, input, the files when it marks (before the effect)]
    const steps: Array<[string, object, string]> = [
      ['write_file', { path: 'a.txt', content: 'w\n' }, 'a="a\\n" b="(none)"'],
      ['edit_file', { path: 'a.txt', old_string: 'w', new_string: 'e' }, 'a="w\\n" b="(none)"'],
      ['move_file', { from: 'a.txt', to: 'b.txt' }, 'a="e\\n" b="(none)"'],
      ['delete_file', { path: 'b.txt' }, 'a="(none)" b="e\\n"'],
    ];
    let token = 1;
    for (const [name, input, before] of steps) {
      const { ctx, marks } = recording(fx.root, token++);
      const answer = await fx.tool(name).execute(input as never, ctx);
      expect(answer.isError, answer.content).toBe(undefined);
      expect(await marks(), name).toEqual([before]);
    }
    expect(await readdir(fx.root)).toEqual([]); // every effect was made: the last one deleted b.txt
  });

  it('without a fencing token too (the mark is the coordinator’s business, the commit is the same)', async () => {
    const fx = await fsFixture({ tree: { 'a.txt': 'a\n' } });
    const { ctx, marks } = recording(fx.root);
    await fx.tool('write_file').execute({ path: 'a.txt', content: 'w\n' } as never, ctx);
    expect(await marks()).toEqual(['a="a\\n" b="(none)"']);
    expect(await readFile(join(fx.root, 'a.txt'), 'utf8')).toBe('w\n');
  });

  it('not when the write is refused (stale token), stopped, or finds nothing to do', async () => {
    const fx = await fsFixture({ tree: { 'a.txt': 'a\n' } });
    await fx
      .tool('write_file')
      .execute({ path: 'a.txt', content: 'new\n' } as never, { ...context(), fencingToken: 9 });
    const stale = recording(fx.root, 4);
    expect(
      (await fx.tool('write_file').execute({ path: 'a.txt', content: 'x' } as never, stale.ctx))
        .content,
    ).toMatch(/^refused to write/);
    expect(await stale.marks()).toEqual([]);
    const stopped = recording(fx.root, 10);
    const controller = new AbortController();
    controller.abort(new Error('lease lost'));
    await fx.tool('write_file').execute({ path: 'a.txt', content: 'x' } as never, {
      ...stopped.ctx,
      signal: controller.signal,
    });
    expect(await stopped.marks()).toEqual([]);
    const noMatch = recording(fx.root, 11);
    await fx
      .tool('edit_file')
      .execute({ path: 'a.txt', old_string: 'zzz', new_string: 'y' } as never, noMatch.ctx);
    expect(await noMatch.marks()).toEqual([]);
    expect(await readFile(join(fx.root, 'a.txt'), 'utf8')).toBe('new\n');
  });
});
