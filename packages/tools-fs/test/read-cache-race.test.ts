import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReadCache } from '../src/index.js';
import { type Deferred, deferred } from './deferred.js';
import { fsFixture } from './fixture.js';

interface Gate {
  readonly readDone: Deferred<void>;
  readonly release: Deferred<void>;
}

/**
 * The test decides when a read that has already read the file answers: the next load the cache
 * runs (what `read_file` reads the file with) reads, reports `readDone`, then waits for
 * `release` before the cache sees its answer. Only this cache instance is wrapped.
 */
function gateNextLoad(cache: ReadCache): Gate {
  const gate = { readDone: deferred<void>(), release: deferred<void>() };
  const read = cache.read.bind(cache);
  let armed = true;
  cache.read = (options) =>
    read({
      ...options,
      load: async () => {
        const text = await options.load();
        if (armed) {
          armed = false;
          gate.readDone.resolve();
          await gate.release.promise;
        }
        return text;
      },
    });
  return gate;
}

describe('read_file with cachedReads, racing a write', () => {
  it('answers a read that began before the write with what it read, but never caches it', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'old' }, module: { cachedReads: true } });
    const armed = gateNextLoad(fx.cache);

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
    const armed = gateNextLoad(fx.cache);
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
