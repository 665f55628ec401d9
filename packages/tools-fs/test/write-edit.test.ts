import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { atomicWrite } from '../src/atomic-write.js';
import { fsFixture } from './fixture.js';

describe('write_file', () => {
  it('creates a file and the folders above it', async () => {
    const fx = await fsFixture();
    const out = await fx.run('write_file', { path: 'src/lib/a.ts', content: 'x\ny\n' });
    expect(out).toEqual({ content: 'wrote 2 lines (4 bytes) to src/lib/a.ts (new file)' });
    expect(await readFile(join(fx.root, 'src/lib/a.ts'), 'utf8')).toBe('x\ny\n');
  });

  it('replaces a file, keeping its mode, and leaves no temporary file', async () => {
    const fx = await fsFixture({ tree: { 'run.sh': 'old' } });
    await chmod(join(fx.root, 'run.sh'), 0o750);
    const before = await stat(join(fx.root, 'run.sh'));
    const out = await fx.run('write_file', { path: 'run.sh', content: 'é' });
    expect(out).toEqual({ content: 'wrote 1 line (2 bytes) to run.sh (replaced)' });
    expect(await readFile(join(fx.root, 'run.sh'), 'utf8')).toBe('é');
    const after = await stat(join(fx.root, 'run.sh'));
    expect(after.mode & 0o777).toBe(0o750);
    // a new file renamed over the old one, never the old one rewritten in place
    expect(after.ino).not.toBe(before.ino);
    expect(await readdir(fx.root)).toEqual(['run.sh']);
  });

  it('writes through a link to its target', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'a' }, links: { 'link.ts': 'a.ts' } });
    const out = await fx.run('write_file', { path: 'link.ts', content: 'b' });
    expect(out.content).toBe('wrote 1 line (1 byte) to a.ts (replaced)');
    expect(await readFile(join(fx.root, 'a.ts'), 'utf8')).toBe('b');
  });

  it('refuses to write over a folder, or below a file', async () => {
    const fx = await fsFixture({ tree: { src: {}, 'a.ts': 'a' } });
    expect(await fx.run('write_file', { path: 'src', content: 'x' })).toEqual({
      content: 'cannot write `src`: it is a directory',
      isError: true,
    });
    const below = await fx.run('write_file', { path: 'a.ts/b.ts', content: 'x' });
    expect(below.isError).toBe(true);
    expect(below.content).toMatch(/^(not a directory|already exists): /);
    expect(await readFile(join(fx.root, 'a.ts'), 'utf8')).toBe('a');
  });

  it('cleans up its temporary file when the final rename fails', async () => {
    const fx = await fsFixture({ tree: { dir: { 'keep.txt': 'k' } } });
    // renaming a file over a non-empty folder fails after the temporary file was written
    await expect(atomicWrite({ target: join(fx.root, 'dir'), content: 'x' })).rejects.toMatchObject(
      {
        code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/),
      },
    );
    expect(await readdir(fx.root)).toEqual(['dir']);
    expect(await readdir(join(fx.root, 'dir'))).toEqual(['keep.txt']);
  });
});

describe('edit_file', () => {
  it('replaces the one occurrence, keeping the mode', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'const a = 1;\nconst b = 2;\n' } });
    await chmod(join(fx.root, 'a.ts'), 0o600);
    const out = await fx.run('edit_file', {
      path: 'a.ts',
      old_string: 'const b = 2;',
      new_string: 'const b = $&;',
    });
    expect(out).toEqual({ content: 'edited a.ts: replaced 1 occurrence' });
    // `$&` is taken literally, not as a replacement pattern
    expect(await readFile(join(fx.root, 'a.ts'), 'utf8')).toBe('const a = 1;\nconst b = $&;\n');
    expect((await stat(join(fx.root, 'a.ts'))).mode & 0o777).toBe(0o600);
    expect(await readdir(fx.root)).toEqual(['a.ts']);
  });

  it('refuses a string that is not unique and leaves the file untouched', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'x = 1\nx = 1\n' } });
    const before = await stat(join(fx.root, 'a.ts'));
    const out = await fx.run('edit_file', {
      path: 'a.ts',
      old_string: 'x = 1',
      new_string: 'x = 2',
    });
    expect(out).toEqual({
      content:
        '`old_string` occurs 2 times in a.ts: include more of the surrounding text to pick one, or set replace_all to replace all 2',
      isError: true,
    });
    expect(await readFile(join(fx.root, 'a.ts'), 'utf8')).toBe('x = 1\nx = 1\n');
    expect((await stat(join(fx.root, 'a.ts'))).ino).toBe(before.ino);
  });

  it('replaces every occurrence with replace_all', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'aaa' } });
    const out = await fx.run('edit_file', {
      path: 'a.ts',
      old_string: 'aa',
      new_string: 'b',
      replace_all: true,
    });
    // non-overlapping, left to right: 'aa' + 'a'
    expect(out).toEqual({ content: 'edited a.ts: replaced 1 occurrence' });
    expect(await readFile(join(fx.root, 'a.ts'), 'utf8')).toBe('ba');
    const again = await fx.run('edit_file', {
      path: 'a.ts',
      old_string: 'a',
      new_string: 'cc',
      replace_all: true,
    });
    expect(again).toEqual({ content: 'edited a.ts: replaced 1 occurrence' });
    await writeFile(join(fx.root, 'b.ts'), 'x.x.x');
    expect(
      await fx.run('edit_file', {
        path: 'b.ts',
        old_string: '.',
        new_string: '/',
        replace_all: true,
      }),
    ).toEqual({ content: 'edited b.ts: replaced 2 occurrences' });
    expect(await readFile(join(fx.root, 'b.ts'), 'utf8')).toBe('x/x/x');
  });

  it('answers a missing string, an empty one and a no-op with soft errors', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'hello' } });
    expect(await fx.run('edit_file', { path: 'a.ts', old_string: 'bye', new_string: 'x' })).toEqual(
      {
        content:
          '`old_string` was not found in a.ts: it must match the file exactly, whitespace included; read the file again',
        isError: true,
      },
    );
    expect(await fx.run('edit_file', { path: 'a.ts', old_string: '', new_string: 'x' })).toEqual({
      content: '`old_string` is empty: give the exact text to replace (write_file creates a file)',
      isError: true,
    });
    expect(
      await fx.run('edit_file', { path: 'a.ts', old_string: 'hello', new_string: 'hello' }),
    ).toEqual({
      content: '`old_string` and `new_string` are the same: nothing to change',
      isError: true,
    });
    expect(await readFile(join(fx.root, 'a.ts'), 'utf8')).toBe('hello');
  });

  it('answers a missing file, a binary file and a file over maxFileBytes with soft errors', async () => {
    const fx = await fsFixture({
      tree: { 'big.txt': 'x'.repeat(101) },
      module: { maxFileBytes: 100 },
    });
    await writeFile(join(fx.root, 'a.bin'), Buffer.from([1, 0, 2]));
    await mkdir(join(fx.root, 'dir'));
    expect(await fx.run('edit_file', { path: 'no.ts', old_string: 'a', new_string: 'b' })).toEqual({
      content: 'not found: `no.ts`',
      isError: true,
    });
    expect(await fx.run('edit_file', { path: 'a.bin', old_string: 'a', new_string: 'b' })).toEqual({
      content: 'binary file: `a.bin` is not text',
      isError: true,
    });
    expect(
      await fx.run('edit_file', { path: 'big.txt', old_string: 'x', new_string: 'y' }),
    ).toEqual({
      content: 'too large: `big.txt` is 101 bytes, over the 100-byte limit',
      isError: true,
    });
    expect(await fx.run('edit_file', { path: 'dir', old_string: 'x', new_string: 'y' })).toEqual({
      content: 'is a directory: `dir` (list_dir shows what it holds)',
      isError: true,
    });
  });
});
