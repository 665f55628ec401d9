import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Makes the next `rename` fail when set. */
const renameFault = vi.hoisted(() => ({ fail: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    rename: async (from: string, to: string) => {
      if (renameFault.fail) {
        renameFault.fail = false;
        throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      }
      return real.rename(from, to);
    },
  };
});

// The bench project shares one module cache between its test files (no per-file isolation), so
// the module may already be loaded with the real `rename`: load it afresh, under the mock.
vi.resetModules();
const { writeFileAtomically } = await import('../src/cli/write-file-atomically.js');
const { BenchError } = await import('../src/index.js');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bench-write-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomically', () => {
  it('writes the file, creating the folder, and leaves no temporary file', async () => {
    const out = join(dir, 'results');
    await writeFileAtomically({ path: join(out, 'a.md'), content: 'A' });
    expect(await readdir(out)).toEqual(['a.md']);
    expect(await readFile(join(out, 'a.md'), 'utf8')).toBe('A');
  });

  it('replaces an existing file', async () => {
    await writeFile(join(dir, 'a.md'), 'old A');
    await writeFileAtomically({ path: join(dir, 'a.md'), content: 'new A' });
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('new A');
    expect(await readdir(dir)).toEqual(['a.md']);
  });

  it('refuses to replace something that is not a file', async () => {
    await mkdir(join(dir, 'b.json'));
    const failing = writeFileAtomically({ path: join(dir, 'b.json'), content: '{}' });
    await expect(failing).rejects.toThrow(BenchError);
    await expect(failing).rejects.toThrow(
      /Could not write `b\.json` in `.*`: something other than a file is in the way/,
    );
    expect(await readdir(dir)).toEqual(['b.json']);
  });

  it('leaves the old file as it was and no temporary file when the rename fails', async () => {
    await writeFile(join(dir, 'a.md'), 'old A');
    renameFault.fail = true;
    await expect(
      writeFileAtomically({ path: join(dir, 'a.md'), content: 'new A' }),
    ).rejects.toThrow('Could not write `a.md`');
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('old A');
    expect(await readdir(dir)).toEqual(['a.md']);
  });
});
