import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolContext } from '@toolwaves/core';
import { describe, expect, it } from 'vitest';
import { context, fsFixture } from './fixture.js';

/**
 * A context whose `markCommitted` records, at the moment it is called, what `a.txt` and `b.txt`
 * hold (or that they are missing): the mark must come after the effect, once.
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
  it('write_file, edit_file, move_file, delete_file: once each, after the effect is in place', async () => {
    const fx = await fsFixture({ tree: { 'a.txt': 'a\n' } });
    const steps: Array<[string, object, string]> = [
      ['write_file', { path: 'a.txt', content: 'w\n' }, 'a="w\\n" b="(none)"'],
      ['edit_file', { path: 'a.txt', old_string: 'w', new_string: 'e' }, 'a="e\\n" b="(none)"'],
      ['move_file', { from: 'a.txt', to: 'b.txt' }, 'a="(none)" b="e\\n"'],
      ['delete_file', { path: 'b.txt' }, 'a="(none)" b="(none)"'],
    ];
    let token = 1;
    for (const [name, input, after] of steps) {
      const { ctx, marks } = recording(fx.root, token++);
      const answer = await fx.tool(name).execute(input as never, ctx);
      expect(answer.isError, answer.content).toBe(undefined);
      expect(await marks(), name).toEqual([after]);
    }
  });

  it('without a fencing token too (the mark is the coordinator’s business, the commit is the same)', async () => {
    const fx = await fsFixture({ tree: { 'a.txt': 'a\n' } });
    const { ctx, marks } = recording(fx.root);
    await fx.tool('write_file').execute({ path: 'a.txt', content: 'w\n' } as never, ctx);
    expect(await marks()).toEqual(['a="w\\n" b="(none)"']);
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
