import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Makes the n-th `rename` from now on fail (0: never). */
const renameFault = vi.hoisted(() => ({ failAt: 0, count: 0 }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    rename: async (from: string, to: string) => {
      if (renameFault.failAt > 0 && ++renameFault.count === renameFault.failAt) {
        renameFault.count = 0;
        throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      }
      return real.rename(from, to);
    },
  };
});

// The bench project shares one module cache between its test files (no per-file isolation), so
// the module may already be loaded with the real `rename`: load it afresh, under the mock.
vi.resetModules();
const { BenchError, writeFilesAtomically } = await import('../src/index.js');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bench-write-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFilesAtomically', () => {
  it('writes every file, creating the folder, and leaves no temporary file', async () => {
    const out = join(dir, 'results');
    await writeFilesAtomically({ dir: out, files: { 'a.md': 'A', 'b.json': '{}' } });
    expect((await readdir(out)).sort()).toEqual(['a.md', 'b.json']);
    expect(await readFile(join(out, 'a.md'), 'utf8')).toBe('A');
  });

  it('replaces existing files and cleans up what it kept aside', async () => {
    await writeFile(join(dir, 'a.md'), 'old A');
    await writeFilesAtomically({ dir, files: { 'a.md': 'new A', 'b.json': '{}' } });
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('new A');
    expect((await readdir(dir)).sort()).toEqual(['a.md', 'b.json']);
  });

  it('writes nothing when a target cannot be replaced, and leaves the old files as they were', async () => {
    await writeFile(join(dir, 'a.md'), 'old A');
    await mkdir(join(dir, 'b.json'));
    const failing = writeFilesAtomically({ dir, files: { 'a.md': 'new A', 'b.json': '{}' } });
    await expect(failing).rejects.toThrow(BenchError);
    await expect(failing).rejects.toThrow(
      /Could not write `b\.json` in `.*`: something other than a file is in the way/,
    );
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('old A');
    expect((await readdir(dir)).sort()).toEqual(['a.md', 'b.json']);
  });

  it('puts the old files back when a rename fails half-way', async () => {
    await writeFile(join(dir, 'a.md'), 'old A');
    await writeFile(join(dir, 'b.json'), 'old B');
    // Renames: a.md aside, new a.md in, b.json aside, new b.json in (the 4th fails).
    renameFault.failAt = 4;
    try {
      await expect(
        writeFilesAtomically({ dir, files: { 'a.md': 'new A', 'b.json': 'new B' } }),
      ).rejects.toThrow('Could not write `b.json`');
    } finally {
      renameFault.failAt = 0;
    }
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('old A');
    expect(await readFile(join(dir, 'b.json'), 'utf8')).toBe('old B');
    expect((await readdir(dir)).sort()).toEqual(['a.md', 'b.json']);
  });

  it('refuses a file name with a folder in it', async () => {
    await expect(writeFilesAtomically({ dir, files: { 'sub/a.md': 'A' } })).rejects.toThrow(
      'Expected file names without folders, got `sub/a.md`',
    );
  });
});
