import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ReadTextFileOptions } from '../src/read-text-file.js';
import { type Deferred, deferred } from './deferred.js';
import { fsFixture } from './fixture.js';

/**
 * The test decides when a read that has already read the file answers: `read_file`'s reader is
 * wrapped so it reads, reports `readDone`, then waits for `release`.
 */
const gate = vi.hoisted(() => ({
  armed: undefined as { readDone: Deferred<void>; release: Deferred<void> } | undefined,
}));

vi.mock('../src/read-text-file.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/read-text-file.js')>();
  return {
    ...original,
    readTextFile: async (options: ReadTextFileOptions) => {
      const text = await original.readTextFile(options);
      const armed = gate.armed;
      gate.armed = undefined;
      if (armed !== undefined) {
        armed.readDone.resolve();
        await armed.release.promise;
      }
      return text;
    },
  };
});

describe('read_file with cachedReads, racing a write', () => {
  it('answers a read that began before the write with what it read, but never caches it', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'old' }, module: { cachedReads: true } });
    const armed = { readDone: deferred<void>(), release: deferred<void>() };
    gate.armed = armed;

    const slowRead = fx.run('read_file', { path: 'a.ts' });
    await armed.readDone.promise; // the read has the old content in hand
    expect(await fx.run('write_file', { path: 'a.ts', content: 'new' })).toEqual({
      content: 'wrote 1 line (3 bytes) to a.ts (replaced)',
    });
    expect(await readFile(join(fx.root, 'a.ts'), 'utf8')).toBe('new');
    armed.release.resolve();

    expect(await slowRead).toEqual({ content: '     1\told' });
    expect(fx.cache.stats).toEqual({ hits: 0, misses: 1, entries: 0 });
    expect(await fx.run('read_file', { path: 'a.ts' })).toEqual({ content: '     1\tnew' });
    expect(await fx.run('read_file', { path: './a.ts' })).toEqual({ content: '     1\tnew' });
    expect(fx.cache.stats).toEqual({ hits: 1, misses: 2, entries: 1 });
  });

  it('caches a read that began after the write', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'old' }, module: { cachedReads: true } });
    await fx.run('write_file', { path: 'a.ts', content: 'new' });
    const armed = { readDone: deferred<void>(), release: deferred<void>() };
    gate.armed = armed;
    const read = fx.run('read_file', { path: 'a.ts' });
    await armed.readDone.promise;
    armed.release.resolve();
    expect(await read).toEqual({ content: '     1\tnew' });
    expect(fx.cache.stats).toEqual({ hits: 0, misses: 1, entries: 1 });
  });
});

describe('read_file with cachedReads', () => {
  it('is invalidated by each kind of write that overlaps it', async () => {
    const fx = await fsFixture({
      tree: { src: { 'a.ts': 'a1' }, 'b.ts': 'b' },
      module: { cachedReads: true },
    });
    const read = async () => (await fx.run('read_file', { path: 'src/a.ts' })).content;
    expect(await read()).toBe('     1\ta1');
    await fx.run('edit_file', { path: 'src/a.ts', old_string: 'a1', new_string: 'a2' });
    expect(await read()).toBe('     1\ta2');
    await fx.run('write_file', { path: 'src/a.ts', content: 'a3' });
    expect(await read()).toBe('     1\ta3');
    await fx.run('move_file', { from: 'b.ts', to: 'src/a.ts', overwrite: true });
    expect(await read()).toBe('     1\tb');
    await fx.run('move_file', { from: 'src', to: 'lib' });
    expect(await fx.run('read_file', { path: 'src/a.ts' })).toEqual({
      content: 'not found: `src/a.ts`',
      isError: true,
    });
    await fx.run('write_file', { path: 'src/a.ts', content: 'a4' });
    expect(await read()).toBe('     1\ta4');
    await fx.run('delete_file', { path: 'src/a.ts' });
    expect((await fx.run('read_file', { path: 'src/a.ts' })).isError).toBe(true);
    // no stale answer was ever served, and the unchanged re-read is a hit
    await fx.run('write_file', { path: 'src/a.ts', content: 'a5' });
    expect(await read()).toBe('     1\ta5');
    expect(await read()).toBe('     1\ta5');
    expect(fx.cache.stats.hits).toBe(1);
  });
});
