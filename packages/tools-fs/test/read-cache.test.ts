import { describe, expect, it } from 'vitest';
import { ReadCache } from '../src/index.js';
import { deferred } from './deferred.js';

const cache = (maxEntries = 100) => new ReadCache({ enabled: true, maxEntries });

/** A loader that counts its calls and answers `value`. */
function loader(value: string) {
  const load = async () => {
    load.calls += 1;
    return value;
  };
  load.calls = 0;
  return load;
}

describe('ReadCache', () => {
  it('answers a second read from the cache and counts hits and misses', async () => {
    const reads = cache();
    const load = loader('content');
    expect(await reads.read({ key: 'fs:/w/a', variant: '1:10', load })).toBe('content');
    expect(await reads.read({ key: 'fs:/w/a', variant: '1:10', load })).toBe('content');
    expect(load.calls).toBe(1);
    expect(reads.stats).toEqual({ hits: 1, misses: 1, entries: 1 });
  });

  it('keeps variants of one key apart', async () => {
    const reads = cache();
    await reads.read({ key: 'fs:/w/a', variant: '1:10', load: loader('first ten') });
    expect(await reads.read({ key: 'fs:/w/a', variant: '5:10', load: loader('from five') })).toBe(
      'from five',
    );
    expect(reads.stats).toEqual({ hits: 0, misses: 2, entries: 2 });
  });

  it('invalidates hierarchically: the key, its ancestors and its descendants', async () => {
    const reads = cache();
    const keys = [
      'fs:/w',
      'fs:/w/src',
      'fs:/w/src/a.ts',
      'fs:/w/src/lib/b.ts',
      'fs:/w/srcx',
      'fs:/v',
    ];
    for (const key of keys) await reads.read({ key, variant: '', load: loader(key) });
    reads.invalidate(['fs:/w/src']);
    const kept: string[] = [];
    for (const key of keys) {
      const load = loader('reloaded');
      await reads.read({ key, variant: '', load });
      if (load.calls === 0) kept.push(key);
    }
    expect(kept).toEqual(['fs:/w/srcx', 'fs:/v']);
  });

  it('does not store a failed read', async () => {
    const reads = cache();
    await expect(
      reads.read({ key: 'fs:/w/a', variant: '', load: () => Promise.reject(new Error('gone')) }),
    ).rejects.toThrow('gone');
    expect(reads.stats.entries).toBe(0);
  });

  it('evicts the least recently used entry past maxEntries', async () => {
    const reads = cache(2);
    await reads.read({ key: 'fs:/a', variant: '', load: loader('a') });
    await reads.read({ key: 'fs:/b', variant: '', load: loader('b') });
    await reads.read({ key: 'fs:/a', variant: '', load: loader('a') }); // a is now the most recent
    await reads.read({ key: 'fs:/c', variant: '', load: loader('c') }); // evicts b
    const b = loader('b');
    const a = loader('a');
    await reads.read({ key: 'fs:/a', variant: '', load: a });
    await reads.read({ key: 'fs:/b', variant: '', load: b });
    expect([a.calls, b.calls]).toEqual([0, 1]);
  });

  it('stores nothing when disabled', async () => {
    const reads = new ReadCache({ enabled: false, maxEntries: 10 });
    const load = loader('x');
    await reads.read({ key: 'fs:/a', variant: '', load });
    await reads.read({ key: 'fs:/a', variant: '', load });
    expect(load.calls).toBe(2);
    expect(reads.stats).toEqual({ hits: 0, misses: 0, entries: 0 });
  });
});

describe('the epoch guard', () => {
  it('does not store a read when an overlapping write lands while it is in flight', async () => {
    const reads = cache();
    const stale = deferred<string>();
    const inFlight = reads.read({ key: 'fs:/w/a.ts', variant: '', load: () => stale.promise });
    reads.invalidate(['fs:/w/a.ts']); // the write of the same wave completes first
    stale.resolve('old content');
    expect(await inFlight).toBe('old content'); // the read answers what it read...
    const next = loader('new content');
    expect(await reads.read({ key: 'fs:/w/a.ts', variant: '', load: next })).toBe('new content');
    expect(next.calls).toBe(1); // ...but did not cache it
  });

  it('also guards against a write on a folder above the file (a moved folder)', async () => {
    const reads = cache();
    const stale = deferred<string>();
    const inFlight = reads.read({ key: 'fs:/w/src/a.ts', variant: '', load: () => stale.promise });
    reads.invalidate(['fs:/w/src']);
    stale.resolve('old');
    await inFlight;
    expect(reads.stats.entries).toBe(0);
  });

  it('stores a read when the write in flight touches something else', async () => {
    const reads = cache();
    const pending = deferred<string>();
    const inFlight = reads.read({ key: 'fs:/w/a.ts', variant: '', load: () => pending.promise });
    reads.invalidate(['fs:/w/b.ts', 'fs:/w/ab.ts', 'fs:/w/a.ts.bak']);
    pending.resolve('a');
    await inFlight;
    expect(reads.stats.entries).toBe(1);
  });

  it('stores a read that started after the write', async () => {
    const reads = cache();
    reads.invalidate(['fs:/w/a.ts']);
    const pending = deferred<string>();
    const inFlight = reads.read({ key: 'fs:/w/a.ts', variant: '', load: () => pending.promise });
    pending.resolve('fresh');
    await inFlight;
    expect(reads.stats.entries).toBe(1);
  });

  it('judges each overlapping read by its own start', async () => {
    const reads = cache();
    const early = deferred<string>();
    const late = deferred<string>();
    const first = reads.read({ key: 'fs:/w/a.ts', variant: 'early', load: () => early.promise });
    reads.invalidate(['fs:/w/a.ts']);
    const second = reads.read({ key: 'fs:/w/a.ts', variant: 'late', load: () => late.promise });
    // the late read settles first, the early one last: only the late one is fresh
    late.resolve('new');
    await second;
    early.resolve('old');
    await first;
    const probeEarly = loader('x');
    const probeLate = loader('x');
    await reads.read({ key: 'fs:/w/a.ts', variant: 'early', load: probeEarly });
    await reads.read({ key: 'fs:/w/a.ts', variant: 'late', load: probeLate });
    expect([probeEarly.calls, probeLate.calls]).toEqual([1, 0]);
  });

  it('drops an entry stored by a read if a later write overlaps it', async () => {
    const reads = cache();
    await reads.read({ key: 'fs:/w/a.ts', variant: '', load: loader('a') });
    reads.invalidate(['fs:/w']);
    expect(reads.stats.entries).toBe(0);
  });
});
