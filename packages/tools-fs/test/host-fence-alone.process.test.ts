import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsKey, HostFence } from '../src/index.js';
import { scriptCommand, startChild } from './fence/spawn-script.js';
import { tempDir } from './temp-dir.js';

/**
 * The file system's clock, not a timer under test: a listing of the fence's folder tells who is
 * there only when taken more than 1.1 s after the folder's last change.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1300));

/**
 * A process alone in its fence skips reading the token records (nobody else can have appended):
 * a second process that comes, records a newer token and leaves must still refuse its commit,
 * whether the commit comes right after it left or once the folder is quiet again.
 */
// The scenarios run at once, each in folders of its own: they mostly wait for the folder to settle.
describe.concurrent('a fence used by one process, then by another for a moment', () => {
  for (const when of ['right after it left', 'once the folder is quiet again'] as const) {
    it(`refuses the older token ${when}`, async (context) => {
      const root = await tempDir(context);
      const fenceTempDir = await tempDir(context);
      await writeFile(join(root, 'a.txt'), 'old\n');
      const fence = HostFence.forUser({ tempDir: fenceTempDir });
      const key = fsKey(join(root, 'a.txt'));
      const write = (token: number) => ({ keys: [key], token, what: '`a.txt`' });
      const commit = (token: number) => fence.commit(write(token), async () => token);
      // alone, long enough for the listing to tell so: claims and commits read no records
      await fence.claim(write(1));
      expect(await commit(1)).toBe(1);
      await settle();
      for (const token of [2, 3, 4]) {
        await fence.claim(write(token));
        expect(await commit(token)).toBe(token);
      }
      await fence.claim(write(5));
      // another process writes a.txt with token 7, and exits
      const other = startChild(scriptCommand('fence-write-process.ts', [fenceTempDir, root]));
      context.onTestFinished(() => {
        other.process.kill('SIGKILL');
      });
      expect(await other.exited).toBe(0);
      expect(JSON.parse(other.output())).toEqual({
        content: 'wrote 1 line (4 bytes) to a.txt (replaced)',
      });
      if (when === 'once the folder is quiet again') await settle();
      await expect(commit(5)).rejects.toMatchObject({
        code: 'stale_token',
        message: expect.stringContaining('token 7'),
      });
      expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('new\n');
    }, 30_000);
  }

  it('two fences of one folder in one process read each other’s records (each is another writer for the other)', async (context) => {
    const root = await tempDir(context);
    const fenceTempDir = await tempDir(context);
    const dir = join(fenceTempDir, 'fence');
    const first = new HostFence({ dir, tempDir: fenceTempDir });
    const second = new HostFence({ dir, tempDir: fenceTempDir });
    const key = fsKey(join(root, 'a.txt'));
    const write = (token: number) => ({ keys: [key], token, what: '`a.txt`' });
    await first.claim(write(1));
    expect(await first.commit(write(1), async () => 1)).toBe(1);
    await settle();
    await first.claim(write(2));
    expect(await first.commit(write(2), async () => 2)).toBe(2);
    await first.claim(write(5));
    await second.claim(write(7));
    expect(await second.commit(write(7), async () => 7)).toBe(7);
    await expect(first.commit(write(5), async () => 5)).rejects.toMatchObject({
      code: 'stale_token',
      message: expect.stringContaining('token 7'),
    });
  }, 30_000);
});
