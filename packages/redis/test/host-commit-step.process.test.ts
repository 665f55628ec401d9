import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trackPromise } from '@toolwaves/core/testing';
import { HostFence } from '@toolwaves/tools-fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bundleScript } from './fleet/bundle-script.js';

const SCRIPT = fileURLToPath(new URL('./fleet/commit-step-process.ts', import.meta.url));

const children: ChildProcess[] = [];
const made: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

function start(args: string[]): {
  child: ChildProcess;
  exited: Promise<number | null>;
  holding: Promise<void>;
} {
  const child = spawn(process.execPath, [bundleScript(SCRIPT), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const holding = new Promise<void>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('holding')) resolve();
    });
  });
  return { child, exited: new Promise((resolve) => child.once('exit', resolve)), holding };
}

async function folder(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'toolwaves-commit-step-')));
  made.push(dir);
  return dir;
}

describe('the host commit step of the fs write tools, across processes', () => {
  it('is taken by one process at a time: read-modify-writes from three processes and this one lose nothing', async () => {
    const dir = await folder();
    const counter = join(dir, 'counter');
    await writeFile(counter, '0\n');
    const runs = [0, 1, 2].map(() => start([join(dir, 'fence'), counter, '40']));
    const fence = new HostFence({ dir: join(dir, 'fence') });
    for (let i = 0; i < 40; i += 1) {
      await fence.commit({ keys: [], token: undefined, what: 'the counter' }, async () => {
        const value = Number(await readFile(counter, 'utf8'));
        await new Promise((resolve) => setImmediate(resolve));
        await writeFile(counter, `${value + 1}\n`);
      });
    }
    expect(await Promise.all(runs.map((r) => r.exited))).toEqual([0, 0, 0]);
    expect(await readFile(counter, 'utf8')).toBe('160\n');
  }, 90_000);

  it('a holder that is stopped (SIGSTOP) keeps it: others wait, safety over liveness; once the holder is gone (SIGKILL) it is taken over', async () => {
    const dir = await folder();
    const holder = start([join(dir, 'fence'), '', 'hold']);
    await holder.holding;
    holder.child.kill('SIGSTOP');
    const fence = new HostFence({ dir: join(dir, 'fence') });
    const mine = trackPromise(
      fence.commit({ keys: [], token: undefined, what: 'x' }, async () => 'mine'),
    );
    // a stopped process still exists: however long it is stopped, the step stays its own
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mine.status).toBe('pending');
    holder.child.kill('SIGKILL');
    await holder.exited;
    await vi.waitFor(() => expect(mine.status).toBe('resolved'), { timeout: 10_000 });
    expect(mine.value).toBe('mine');
  }, 60_000);
});
