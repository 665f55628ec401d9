import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolContext } from '@toolwaves/core';
import { describe, expect, it } from 'vitest';
import { FS_HOST_FENCE, type HostFence } from '../src/index.js';
import { context, type FsFixture, fsFixture } from './fixture.js';

async function fenced(tree: Record<string, string | Record<string, string>>): Promise<{
  fx: FsFixture;
  fence: HostFence;
  run(name: string, input: object, token?: number): Promise<{ content: string; isError?: boolean }>;
}> {
  const fx = await fsFixture({ tree });
  const fence = fx.container.get(FS_HOST_FENCE);
  const run = (name: string, input: object, token?: number) => {
    const base = context(name);
    const withToken: ToolContext = token === undefined ? base : { ...base, fencingToken: token };
    return fx.tool(name).execute(input as never, withToken);
  };
  return { fx, fence, run };
}

/** Resolves once `dir` holds a draft (`.<name>.<hex>.tmp`) of `name`: its writer has read and is about to commit. */
async function draftAppears(dir: string, name: string): Promise<void> {
  for (;;) {
    const names = await readdir(dir);
    if (names.some((n) => n.startsWith(`.${name}.`) && n.endsWith('.tmp'))) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('the fenced commit of the fs write tools', () => {
  it('refuses a write whose token is older than one already recorded for the file, and writes nothing', async () => {
    const { fx, run } = await fenced({ 'notes.txt': 'start\n' });
    expect((await run('write_file', { path: 'notes.txt', content: 'seven\n' }, 7)).isError).toBe(
      undefined,
    );
    const stale = await run('write_file', { path: 'notes.txt', content: 'five\n' }, 5);
    expect(stale.isError).toBe(true);
    expect(stale.content).toMatch(
      /refused to write `notes.txt`: a newer fleet lock \(token 7 on fs:.*notes\.txt\)/,
    );
    expect(await readFile(join(fx.root, 'notes.txt'), 'utf8')).toBe('seven\n');
    expect(await readdir(fx.root)).toEqual(['notes.txt']);
    // an equal or newer token goes through
    expect(
      (await run('edit_file', { path: 'notes.txt', old_string: 'seven', new_string: '7' }, 7))
        .isError,
    ).toBe(undefined);
    expect((await run('delete_file', { path: 'notes.txt' }, 8)).content).toBe('deleted notes.txt');
  });

  it('compares keys along the path: a newer token on a folder refuses a file in it, on a file refuses its folder', async () => {
    const { fx, fence, run } = await fenced({ src: { 'a.ts': 'a', 'b.ts': 'b' } });
    const folder = fx.workspace.resolve('src').key;
    await fence.claim({ keys: [folder], token: 10, what: '`src`' });
    const inside = await run(
      'edit_file',
      { path: 'src/a.ts', old_string: 'a', new_string: 'A' },
      9,
    );
    expect(inside.content).toMatch(/token 10 on fs:.*\/src\)/);
    const file = fx.workspace.resolve('src/b.ts').key;
    await fence.claim({ keys: [file], token: 20, what: '`src/b.ts`' });
    const above = await run('move_file', { from: 'src', to: 'lib' }, 15);
    expect(above.content).toMatch(
      /refused to write `src` and `lib`: a newer fleet lock \(token 20 on fs:.*\/src\/b\.ts\)/,
    );
    expect(await readdir(join(fx.root, 'src'))).toEqual(['a.ts', 'b.ts']);
    // keys that do not overlap are not compared
    expect((await run('write_file', { path: 'other.txt', content: 'x' }, 1)).isError).toBe(
      undefined,
    );
  });

  it('a writer that started, then was overtaken by a newer token before its commit, is refused at the commit', async () => {
    const { fx, fence } = await fenced({ 'n.txt': 'n' });
    const key = fx.workspace.resolve('n.txt').key;
    const older = { keys: [key], token: 5, what: '`n.txt`' };
    await fence.claim(older); // the older call's tool starts
    await fence.claim({ keys: [key], token: 6, what: '`n.txt`' }); // a newer holder starts
    let applied = false;
    await expect(
      fence.commit(older, async () => {
        applied = true;
      }),
    ).rejects.toMatchObject({ code: 'stale_token' });
    expect(applied).toBe(false);
  });

  it('edit_file refuses to commit when the file changed after it read it (no token needed), and writes nothing', async () => {
    const { fx, fence, run } = await fenced({ 'notes.txt': 'start\n' });
    // hold the commit step so the edit reads, drafts, and waits for it
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const held = fence.commit({ keys: [], token: undefined, what: 'test' }, () => gate);
    const edit = run('edit_file', { path: 'notes.txt', old_string: 'start', new_string: 'edited' });
    await draftAppears(fx.root, 'notes.txt');
    await writeFile(join(fx.root, 'notes.txt'), 'start\nsomeone else\n');
    open();
    await held;
    const answer = await edit;
    expect(answer).toEqual({
      content:
        'notes.txt changed since edit_file read it (another writer got there first): nothing was written; read the file again and redo the edit',
      isError: true,
    });
    expect(await readFile(join(fx.root, 'notes.txt'), 'utf8')).toBe('start\nsomeone else\n');
    expect(await readdir(fx.root)).toEqual(['notes.txt']);
  });

  it('a call stopped before its commit writes nothing', async () => {
    const { fx } = await fenced({ 'a.txt': 'a' });
    const stopped = new AbortController();
    stopped.abort(new Error('timed out'));
    const out = await fx
      .tool('write_file')
      .execute({ path: 'a.txt', content: 'b' } as never, { ...context(), signal: stopped.signal });
    expect(out).toEqual({
      content:
        'did not write `a.txt`: the call was stopped before its commit (timed out); nothing was written',
      isError: true,
    });
    expect(await readFile(join(fx.root, 'a.txt'), 'utf8')).toBe('a');
  });

  it('lives outside the workspace, one fence for every workspace of the user, one small record per key', async () => {
    const { fx, fence, run } = await fenced({});
    await run('write_file', { path: 'a.txt', content: 'a' }, 3);
    expect(fence.dir.startsWith(fx.root)).toBe(false);
    expect(await readdir(fx.root)).toEqual(['a.txt']);
    // first this process's arrival (its beacon: its pid in base 36 and 8 hex digits), then the record
    const arrival = expect.stringMatching(
      new RegExp(`^a ${process.pid.toString(36)}-[0-9a-f]{8}$`),
    );
    const records = await readFile(join(fence.dir, 'tokens.log'), 'utf8');
    expect(records.split('\n')).toEqual([
      arrival,
      `t 3 ${JSON.stringify(fx.workspace.resolve('a.txt').key)}`,
      '',
    ]);
    // a second write of the same key with the same token adds nothing; a new key adds one line
    await run('write_file', { path: 'a.txt', content: 'b' }, 3);
    await run('write_file', { path: 'b.txt', content: 'b' }, 4);
    expect((await readFile(join(fence.dir, 'tokens.log'), 'utf8')).split('\n')).toEqual([
      arrival,
      `t 3 ${JSON.stringify(fx.workspace.resolve('a.txt').key)}`,
      `t 4 ${JSON.stringify(fx.workspace.resolve('b.txt').key)}`,
      '',
    ]);
  });
});
