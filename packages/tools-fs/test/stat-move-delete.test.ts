import { chmod, readdir, readFile, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsFixture } from './fixture.js';

describe('stat', () => {
  it('describes a file and a folder', async () => {
    const fx = await fsFixture({ tree: { src: { 'a.ts': 'hello' } } });
    await chmod(join(fx.root, 'src/a.ts'), 0o640);
    const info = await stat(join(fx.root, 'src/a.ts'));
    expect((await fx.run('stat', { path: 'src/a.ts' })).content).toBe(
      `path: src/a.ts\ntype: file\nsize: 5 bytes\nmodified: ${info.mtime.toISOString()}\nmode: 640`,
    );
    expect((await fx.run('stat', { path: 'src' })).content).toMatch(
      /^path: src\ntype: directory\n/,
    );
  });

  it('shows where a link leads', async () => {
    const fx = await fsFixture({ tree: { src: { 'a.ts': 'x' } }, links: { link: 'src/a.ts' } });
    expect((await fx.run('stat', { path: 'link' })).content).toMatch(
      /^path: src\/a\.ts\ntype: file\n/,
    );
  });

  it('answers a missing path with a soft error', async () => {
    const fx = await fsFixture();
    expect(await fx.run('stat', { path: 'nope' })).toEqual({
      content: 'not found: `nope`',
      isError: true,
    });
  });
});

describe('move_file', () => {
  it('renames a file, creating the folders of `to`', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'a' } });
    expect(await fx.run('move_file', { from: 'a.ts', to: 'src/lib/b.ts' })).toEqual({
      content: 'moved a.ts to src/lib/b.ts',
    });
    expect(await readdir(fx.root)).toEqual(['src']);
    expect(await readFile(join(fx.root, 'src/lib/b.ts'), 'utf8')).toBe('a');
  });

  it('moves a folder with what it holds', async () => {
    const fx = await fsFixture({ tree: { src: { 'a.ts': 'a', lib: { 'b.ts': 'b' } } } });
    expect((await fx.run('move_file', { from: 'src', to: 'pkg/src' })).content).toBe(
      'moved src to pkg/src',
    );
    expect(await readFile(join(fx.root, 'pkg/src/lib/b.ts'), 'utf8')).toBe('b');
  });

  it('refuses an existing `to` unless overwrite, and overwrite only replaces a file with a file', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'a', 'b.ts': 'b', dir: {} } });
    expect(await fx.run('move_file', { from: 'a.ts', to: 'b.ts' })).toEqual({
      content: 'cannot move a.ts: `to` b.ts already exists (set overwrite to replace a file)',
      isError: true,
    });
    expect(await readFile(join(fx.root, 'b.ts'), 'utf8')).toBe('b');
    expect(await fx.run('move_file', { from: 'a.ts', to: 'dir', overwrite: true })).toEqual({
      content: 'cannot move a.ts over dir: overwrite replaces a file with a file only',
      isError: true,
    });
    expect(await fx.run('move_file', { from: 'dir', to: 'b.ts', overwrite: true })).toEqual({
      content: 'cannot move dir over b.ts: overwrite replaces a file with a file only',
      isError: true,
    });
    expect(await fx.run('move_file', { from: 'a.ts', to: 'b.ts', overwrite: true })).toEqual({
      content: 'moved a.ts to b.ts (replaced the file that was there)',
    });
    expect(await readFile(join(fx.root, 'b.ts'), 'utf8')).toBe('a');
    expect((await readdir(fx.root)).sort()).toEqual(['b.ts', 'dir']);
  });

  it('refuses the root, a folder into itself, and a missing source', async () => {
    const fx = await fsFixture({ tree: { src: { 'a.ts': '' } } });
    expect(await fx.run('move_file', { from: '.', to: 'x' })).toEqual({
      content: 'cannot move the workspace root',
      isError: true,
    });
    expect(await fx.run('move_file', { from: 'src', to: 'src/inner' })).toEqual({
      content: 'cannot move src into itself (src/inner)',
      isError: true,
    });
    expect(await fx.run('move_file', { from: 'nope', to: 'x' })).toEqual({
      content: 'not found: `nope`',
      isError: true,
    });
    expect(await fx.run('move_file', { from: 'src/a.ts', to: './src/a.ts' })).toEqual({
      content: 'nothing to do: `from` and `to` are the same path (src/a.ts)',
    });
  });

  it('names the field that escapes', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': '' } });
    expect(await fx.run('move_file', { from: 'a.ts', to: '../a.ts' })).toEqual({
      content: `path escapes the workspace: \`to\` "../a.ts" resolves outside ${fx.root}`,
      isError: true,
    });
  });
});

describe('delete_file', () => {
  it('deletes a file and an empty folder', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': '', empty: {} } });
    expect(await fx.run('delete_file', { path: 'a.ts' })).toEqual({ content: 'deleted a.ts' });
    expect(await fx.run('delete_file', { path: 'empty' })).toEqual({
      content: 'deleted the empty folder empty',
    });
    expect(await readdir(fx.root)).toEqual([]);
  });

  it('refuses a folder that holds something, the root and a missing file', async () => {
    const fx = await fsFixture({ tree: { src: { 'a.ts': '' } } });
    expect(await fx.run('delete_file', { path: 'src' })).toEqual({
      content: 'directory not empty: `src` (delete_file removes files and empty folders only)',
      isError: true,
    });
    expect(await fx.run('delete_file', { path: '.' })).toEqual({
      content: 'cannot delete the workspace root',
      isError: true,
    });
    expect(await fx.run('delete_file', { path: 'nope' })).toEqual({
      content: 'not found: `nope`',
      isError: true,
    });
    expect(await readdir(join(fx.root, 'src'))).toEqual(['a.ts']);
  });

  it('deletes the target of a link, as every tool acts through links', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': '' } });
    await symlink('a.ts', join(fx.root, 'link'));
    expect(await fx.run('delete_file', { path: 'link' })).toEqual({ content: 'deleted a.ts' });
    expect(await readdir(fx.root)).toEqual(['link']);
  });
});
