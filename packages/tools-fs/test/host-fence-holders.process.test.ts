import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolContext } from '@toolwaves/core';
import { afterEach, describe, expect, it } from 'vitest';
import { fsKey, HostFence } from '../src/index.js';
import { killChildren, scriptCommand, startChild, works } from './fence/spawn-script.js';
import { context, fsFixture } from './fixture.js';
import { tempDir } from './temp-dir.js';

afterEach(killChildren);

/** A workspace holding `a.txt` and `b.txt`, its fence in a folder of its own, a small wait bound. */
async function workspace(maxCommitWaitMs: number) {
  const fenceTempDir = await tempDir();
  const fx = await fsFixture({
    tree: { 'a.txt': 'a\n', 'b.txt': 'b\n', src: { 'c.ts': 'c\n' } },
    module: { fenceTempDir, maxCommitWaitMs },
  });
  return { fx, fenceTempDir };
}

const UNSHARE_PID = ['unshare', '--pid', '--fork', '--kill-child'];

describe('a holder of the host commit step in another process', () => {
  it('stopped (SIGSTOP) while it holds a file: a write of that file answers commit_blocked naming its pid and "stopped", having written nothing; other files are not held up', async () => {
    const { fx, fenceTempDir } = await workspace(300);
    const holder = startChild(
      scriptCommand('fence-holder-process.ts', [fenceTempDir, fsKey(join(fx.root, 'a.txt'))]),
    );
    await holder.printed('holding');
    holder.process.kill('SIGSTOP');
    const pid = holder.process.pid;

    const blocked = await fx.run('write_file', { path: 'a.txt', content: 'mine\n' });
    expect(blocked.isError).toBe(true);
    expect(blocked.content).toContain(`did not write \`a.txt\`: the host commit step`);
    expect(blocked.content).toContain(`(pid ${pid}, stopped)`);
    expect(blocked.content).toContain('nothing was written');
    expect(await readFile(join(fx.root, 'a.txt'), 'utf8')).toBe('a\n');
    expect(
      (await fx.run('edit_file', { path: 'a.txt', old_string: 'a', new_string: 'x' })).content,
    ).toContain('(pid');

    // a file the holder does not hold commits at once
    expect(await fx.run('write_file', { path: 'b.txt', content: 'mine\n' })).toEqual({
      content: 'wrote 1 line (5 bytes) to b.txt (replaced)',
    });

    // once the holder is gone, its key is free
    holder.process.kill('SIGKILL');
    await holder.exited;
    expect((await fx.run('write_file', { path: 'a.txt', content: 'mine\n' })).isError).toBe(
      undefined,
    );
    expect(await readFile(join(fx.root, 'a.txt'), 'utf8')).toBe('mine\n');
  }, 60_000);

  it('stopped: a write that is cancelled while it waits answers stopped, having written nothing', async () => {
    const { fx, fenceTempDir } = await workspace(60_000);
    const holder = startChild(
      scriptCommand('fence-holder-process.ts', [fenceTempDir, fsKey(join(fx.root, 'a.txt'))]),
    );
    await holder.printed('holding');
    holder.process.kill('SIGSTOP');
    const controller = new AbortController();
    const answer = fx.tool('write_file').execute({ path: 'a.txt', content: 'mine\n' } as never, {
      ...context('w'),
      signal: controller.signal,
    });
    // the write waits on the stopped holder (its bound is a minute); cancel it meanwhile
    setTimeout(() => controller.abort(new Error('cancelled by the test')), 200);
    expect(await answer).toEqual({
      content:
        'did not write `a.txt`: the call was stopped before its commit (cancelled by the test); nothing was written',
      isError: true,
    });
    expect(await readFile(join(fx.root, 'a.txt'), 'utf8')).toBe('a\n');
  }, 60_000);

  it('holding a folder: a write of a file in it waits for it, a write beside it does not', async () => {
    const { fx, fenceTempDir } = await workspace(300);
    const holder = startChild(
      scriptCommand('fence-holder-process.ts', [fenceTempDir, fsKey(join(fx.root, 'src'))]),
    );
    await holder.printed('holding');
    const inside = await fx.run('write_file', { path: 'src/c.ts', content: 'x' });
    expect(inside.isError).toBe(true);
    expect(inside.content).toContain(`(pid ${holder.process.pid}, running)`);
    expect(await readFile(join(fx.root, 'src', 'c.ts'), 'utf8')).toBe('c\n');
    expect((await fx.run('write_file', { path: 'b.txt', content: 'x' })).isError).toBe(undefined);
  }, 60_000);

  const pidNamespaces = works([...UNSHARE_PID, 'true']);
  if (!pidNamespaces) {
    console.log(
      'tools-fs: skipping the PID-namespace holder test: `unshare --pid --fork` is not permitted here',
    );
  }
  it.skipIf(!pidNamespaces)(
    'in another PID namespace (its pid means nothing here): this process does not take the step while it holds it, and says the state is unknown',
    async () => {
      const { fx, fenceTempDir } = await workspace(300);
      const holder = startChild([
        ...UNSHARE_PID,
        ...scriptCommand('fence-holder-process.ts', [fenceTempDir, fsKey(join(fx.root, 'a.txt'))]),
      ]);
      await holder.printed('holding');
      const blocked = await fx.run('write_file', { path: 'a.txt', content: 'mine\n' });
      expect(blocked.isError).toBe(true);
      // pid 1 is the holder's own pid in its namespace; here pid 1 is someone else entirely
      expect(blocked.content).toMatch(
        /\(pid 1 in another PID namespace \(pid:\[\d+\]\), stopped: unknown\)/,
      );
      expect(await readFile(join(fx.root, 'a.txt'), 'utf8')).toBe('a\n');
      holder.process.kill('SIGKILL');
      await holder.exited;
      expect((await fx.run('write_file', { path: 'a.txt', content: 'mine\n' })).isError).toBe(
        undefined,
      );
    },
    60_000,
  );
});

describe('commits of one key from several processes', () => {
  it('are one at a time: read-modify-writes of a counter from three processes and this one lose nothing, while a fourth process commits another key beside them', async () => {
    const fenceTempDir = await tempDir();
    const dir = await tempDir();
    const counter = join(dir, 'counter');
    const other = join(dir, 'other');
    await writeFile(counter, '0\n');
    await writeFile(other, '0\n');
    const key = fsKey(counter);
    const children = [0, 1, 2].map(() =>
      startChild(scriptCommand('fence-counter-process.ts', [fenceTempDir, key, counter, '30'])),
    );
    children.push(
      startChild(
        scriptCommand('fence-counter-process.ts', [fenceTempDir, fsKey(other), other, '30']),
      ),
    );
    const fence = HostFence.forUser({ tempDir: fenceTempDir, maxWaitMs: 60_000 });
    for (let i = 0; i < 30; i += 1) {
      await fence.commit({ keys: [key], token: undefined, what: 'the counter' }, async () => {
        const value = Number(await readFile(counter, 'utf8'));
        await new Promise((resolve) => setImmediate(resolve));
        await writeFile(counter, `${value + 1}\n`);
      });
    }
    expect(await Promise.all(children.map((child) => child.exited))).toEqual([0, 0, 0, 0]);
    expect(await readFile(counter, 'utf8')).toBe('120\n');
    expect(await readFile(other, 'utf8')).toBe('30\n');
  }, 120_000);
});

describe('workspaces whose roots overlap', () => {
  it('share one fence: a stale token is refused through either root', async () => {
    const fenceTempDir = await tempDir();
    const base = await tempDir();
    await mkdir(join(base, 'repo', 'sub'), { recursive: true });
    await writeFile(join(base, 'repo', 'sub', 'n.txt'), 'start\n');
    const outer = await fsFixture({ root: join(base, 'repo'), module: { fenceTempDir } });
    const inner = await fsFixture({ root: join(base, 'repo', 'sub'), module: { fenceTempDir } });
    const withToken = (token: number): ToolContext => ({ ...context('w'), fencingToken: token });

    const newer = await outer
      .tool('write_file')
      .execute({ path: 'sub/n.txt', content: 'outer 10\n' } as never, withToken(10));
    expect(newer.isError).toBe(undefined);
    const stale = await inner
      .tool('write_file')
      .execute({ path: 'n.txt', content: 'inner 5\n' } as never, withToken(5));
    expect(stale.isError).toBe(true);
    expect(stale.content).toMatch(
      /^refused to write `n.txt`: a newer fleet lock \(token 10 on fs:.*\/repo\/sub\/n\.txt\)/,
    );
    // the other way round, on the folder: a newer token through the inner root refuses the outer
    const folder = await inner
      .tool('write_file')
      .execute({ path: 'x.txt', content: '20\n' } as never, withToken(20));
    expect(folder.isError).toBe(undefined);
    const moved = await outer
      .tool('move_file')
      .execute({ from: 'sub', to: 'moved' } as never, withToken(15));
    expect(moved.content).toMatch(/token 20 on fs:.*\/repo\/sub\/x\.txt/);
    expect(await readFile(join(base, 'repo', 'sub', 'n.txt'), 'utf8')).toBe('outer 10\n');
  });
});
