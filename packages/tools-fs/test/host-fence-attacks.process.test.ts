import { spawnSync } from 'node:child_process';
import { chmod, chown, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolContext } from '@toolwaves/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FS_HOST_FENCE, fsKey, HostFence } from '../src/index.js';
import { killChildren, scriptCommand, startChild, works } from './fence/spawn-script.js';
import { context, fsFixture } from './fixture.js';
import { tempDir } from './temp-dir.js';

afterEach(killChildren);

/** The local user who attacks: `nobody`. */
const ATTACKER = 65534;
const SETPRIV = ['setpriv', `--reuid=${ATTACKER}`, `--regid=${ATTACKER}`, '--clear-groups'];
const uid = process.getuid?.() ?? -1;
const asRoot = uid === 0;
const setprivWorks = asRoot && works([...SETPRIV, 'true']);
if (!asRoot) {
  console.log('tools-fs: skipping the fence attack tests: they need root to act as a second user');
} else if (!setprivWorks) {
  console.log(
    "tools-fs: `setpriv` cannot switch users here: the attacker's folders are made by the test and given to uid 65534",
  );
}

/**
 * Runs a shell script as the attacker (uid 65534) with `setpriv`, or, where it cannot switch,
 * runs it here and gives what it made (`made`) to uid 65534.
 */
function asAttacker(script: string, made: string): void {
  const command = setprivWorks ? [...SETPRIV, 'sh', '-c', script] : ['sh', '-c', script];
  const [file = '', ...args] = command;
  const run = spawnSync(file, args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`attacker script failed: ${run.stderr}`);
  if (!setprivWorks) spawnSync('chown', ['-R', '-h', `${ATTACKER}:${ATTACKER}`, made]);
}

/**
 * A shared temporary folder like `/tmp` (mode 1777, reachable by the attacker) and a workspace
 * whose fence lives there.
 */
async function sharedTemp() {
  const base = await tempDir();
  await chmod(base, 0o711);
  const tmp = join(base, 'tmp');
  await mkdir(tmp);
  await chmod(tmp, 0o1777);
  const fx = await fsFixture({
    tree: { 'a.txt': 'a\n' },
    module: { fenceTempDir: tmp, maxCommitWaitMs: 500 },
  });
  const ours = join(tmp, `toolwaves-fence-${uid}`);
  const write = (token?: number) => {
    const ctx: ToolContext =
      token === undefined ? context('w') : { ...context('w'), fencingToken: token };
    return fx.tool('write_file').execute({ path: 'a.txt', content: 'mine\n' } as never, ctx);
  };
  return { fx, tmp, ours, write };
}

describe.skipIf(!asRoot)('the host fence, attacked by another local user', () => {
  it('a fence folder made first by another user (mode 0755, a fake lock inside): refused, naming the folder, its owner and mode; nothing written, no wait', async () => {
    const { fx, ours, write } = await sharedTemp();
    asAttacker(
      `mkdir -m 0755 ${ours} && printf 'fake' > ${ours}/b-1-deadbeef.slot && printf 'x' > ${ours}/lock.1`,
      ours,
    );
    const answer = await write(5);
    expect(answer.isError).toBe(true);
    expect(answer.content).toContain(
      `refused to use the host fence folder ${ours}: it belongs to another user (owner uid ${ATTACKER}, mode 0755; expected uid ${uid} and no group/other access)`,
    );
    expect(await readFile(join(fx.root, 'a.txt'), 'utf8')).toBe('a\n');
    await expect(
      fx.container
        .get(FS_HOST_FENCE)
        .commit({ keys: ['k'], token: undefined, what: 'k' }, async () => 1),
    ).rejects.toMatchObject({ code: 'fence_unsafe' });
  });

  it('a planted token record with a huge floor, in a fence made by another user (mode 0700): refused as unsafe, not as a stale token', async () => {
    const { fx, ours, write } = await sharedTemp();
    asAttacker(`mkdir -m 0700 ${ours} && printf 'f 999999999999\\n' > ${ours}/tokens.log`, ours);
    const answer = await write(5);
    expect(answer.isError).toBe(true);
    expect(answer.content).toContain(
      `refused to use the host fence folder ${ours}: it belongs to another user (owner uid ${ATTACKER}, mode 0700`,
    );
    expect(answer.content).not.toContain('newer fleet lock');
    expect(await readFile(join(fx.root, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('a symbolic link in place of the fence folder, to a folder of the attacker: refused', async () => {
    const { ours, tmp, write } = await sharedTemp();
    asAttacker(`mkdir -m 0700 ${tmp}/trap && ln -s ${tmp}/trap ${ours}`, ours);
    const answer = await write(5);
    expect(answer.content).toContain(
      `refused to use the host fence folder ${ours}: it is a symbolic link`,
    );
  });

  it('checked on every use: our fence given to another user, or opened to others, after it was used, is refused from then on', async () => {
    const { ours, write } = await sharedTemp();
    expect((await write(5)).isError).toBe(undefined);
    await chmod(ours, 0o755);
    expect((await write(6)).content).toContain(
      `refused to use the host fence folder ${ours}: its group or others have access (owner uid ${uid}, mode 0755`,
    );
    await chmod(ours, 0o700);
    expect((await write(7)).isError).toBe(undefined);
    await chown(ours, ATTACKER, ATTACKER);
    expect((await write(8)).content).toContain(
      `refused to use the host fence folder ${ours}: it belongs to another user`,
    );
  });

  it('a fence placed deeper below the temporary folder: its parents are checked on every use too', async () => {
    const { tmp } = await sharedTemp();
    const outer = join(tmp, `outer-${uid}`);
    const fence = new HostFence({ dir: join(outer, 'fence'), tempDir: tmp });
    const commit = (token: number) =>
      fence.commit({ keys: [`k${token}`], token, what: `\`k${token}\`` }, async () => token);
    expect(await commit(5)).toBe(5);
    await chmod(outer, 0o755);
    await expect(commit(6)).rejects.toMatchObject({
      code: 'fence_unsafe',
      message: expect.stringContaining(
        `refused to use the host fence folder ${outer}: its group or others have access (owner uid ${uid}, mode 0755`,
      ),
    });
    await chmod(outer, 0o700);
    expect(await commit(7)).toBe(7);
    await chown(outer, ATTACKER, ATTACKER);
    await expect(commit(8)).rejects.toMatchObject({
      code: 'fence_unsafe',
      message: expect.stringContaining(
        `refused to use the host fence folder ${outer}: it belongs to another user`,
      ),
    });
  });

  it('a token record file of another user inside our fence (left there before this process opened it): refused', async () => {
    const { ours, tmp, write } = await sharedTemp();
    expect((await write(5)).isError).toBe(undefined);
    const records = join(ours, 'tokens.log');
    await chown(records, ATTACKER, ATTACKER);
    // a process that opens the records now (this one keeps the file it opened and checked)
    const fresh = new HostFence({ dir: ours, tempDir: tmp });
    await expect(
      fresh.commit({ keys: ['k'], token: 6, what: '`k`' }, async () => 1),
    ).rejects.toMatchObject({
      code: 'fence_unsafe',
      message: expect.stringContaining(
        `refused to use the host fence folder ${records}: the token record file is not this user’s alone (owner uid ${ATTACKER}`,
      ),
    });
  });

  it('a shared temporary folder without the sticky bit (anyone could rename the fence away): refused', async () => {
    const { tmp, write } = await sharedTemp();
    await chmod(tmp, 0o777);
    expect((await write(5)).content).toContain(
      `refused to use the host fence folder ${tmp}: the temporary folder is writable by others without the sticky bit`,
    );
  });
});

describe('the host fence, left in a mess by this user', () => {
  it('the lock of a process that was killed while it held a commit (and a stray file): taken over, the write goes through', async () => {
    const fenceTempDir = await tempDir();
    const fx = await fsFixture({
      tree: { 'a.txt': 'a\n' },
      module: { fenceTempDir, maxCommitWaitMs: 2000 },
    });
    const holder = startChild(
      scriptCommand('fence-holder-process.ts', [fenceTempDir, fsKey(join(fx.root, 'a.txt'))]),
    );
    await holder.printed('holding');
    holder.process.kill('SIGKILL');
    await holder.exited;
    const fenceDir = join(fenceTempDir, `toolwaves-fence-${uid}`);
    const dead = (await readdir(fenceDir)).filter(
      (n) => n.endsWith('.slot') || n.endsWith('.sock'),
    );
    expect(dead).toHaveLength(2); // its slot and its socket, left behind by the kill
    await writeFile(join(fenceDir, 'lock.1'), 'stray');
    expect(await fx.run('write_file', { path: 'a.txt', content: 'mine\n' })).toEqual({
      content: 'wrote 1 line (5 bytes) to a.txt (replaced)',
    });
    // the dead process's slot and socket were removed by the writer that met them
    const now = await readdir(fenceDir);
    expect(dead.filter((name) => now.includes(name))).toEqual([]);
    expect(now).toContain('lock.1'); // not the fence's: left alone
  }, 60_000);

  it('the idle slots of processes killed long ago are swept away by a later writer; a live idle process’s slot stays', async () => {
    const fenceTempDir = await tempDir();
    const fx = await fsFixture({ tree: { 'a.txt': 'a\n' }, module: { fenceTempDir } });
    expect((await fx.run('write_file', { path: 'a.txt', content: '1\n' })).isError).toBe(undefined);
    const fenceDir = join(fenceTempDir, `toolwaves-fence-${uid}`);
    const before = await readdir(fenceDir);
    // a live process, idle (it made a commit of another key, and stays)
    const counter = join(fx.root, 'counter');
    await writeFile(counter, '0\n');
    const live = startChild(
      scriptCommand('fence-counter-process.ts', [fenceTempDir, 'k', counter, '1', 'stay']),
    );
    await live.printed('done');
    const liveSlot = (await readdir(fenceDir)).filter(
      (n) => n.endsWith('.slot') && !before.includes(n),
    );
    expect(liveSlot).toHaveLength(1);
    // ten dead ones: an empty slot each, and a socket nobody listens on (a plain file refuses too)
    const dead = Array.from({ length: 10 }, (_, i) => `${(900 + i).toString(36)}-0000000${i}`);
    for (const beacon of dead) {
      await writeFile(join(fenceDir, `b-${beacon}.slot`), '');
      await writeFile(join(fenceDir, `b-${beacon}.sock`), '');
    }
    expect((await fx.run('write_file', { path: 'a.txt', content: '2\n' })).isError).toBe(undefined);
    await vi.waitFor(async () => {
      const names = await readdir(fenceDir);
      expect(dead.filter((beacon) => names.includes(`b-${beacon}.slot`))).toEqual([]);
    });
    expect(await readdir(fenceDir)).toContain(liveSlot[0]);
  }, 60_000);

  it('a damaged token record: the write fails closed, saying it is the fence’s file', async () => {
    const fenceTempDir = await tempDir();
    const fx = await fsFixture({ tree: { 'a.txt': 'a\n' }, module: { fenceTempDir } });
    const run = (token: number) =>
      fx.tool('write_file').execute({ path: 'a.txt', content: `${token}\n` } as never, {
        ...context('w'),
        fencingToken: token,
      });
    expect((await run(1)).isError).toBe(undefined);
    const records = join(fenceTempDir, `toolwaves-fence-${uid}`, 'tokens.log');
    await writeFile(records, 'garbage\n', { flag: 'a' });
    const answer = await run(2);
    expect(answer.content).toBe(
      `the host fence's token record file ${records} holds a line it cannot read ("garbage"): nothing was written (remove the file only when no fleet call is running)`,
    );
    expect(await readFile(join(fx.root, 'a.txt'), 'utf8')).toBe('1\n');
  });
});
