import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolRegistry } from '@toolwaves/core';
import { describe, expect, it } from 'vitest';
import { canonicalPath, FsToolsError } from '../src/index.js';
import { fsFixture } from './fixture.js';
import { tempDir } from './temp-dir.js';

describe('canonical keys', () => {
  it('gives a.ts, ./a.ts, src/../a.ts, the absolute path and a link to it one key', async () => {
    const fx = await fsFixture({
      tree: { 'a.ts': 'a', src: {} },
      links: { 'link.ts': 'a.ts', 'src-link': 'src' },
    });
    await symlink(join(fx.root, 'a.ts'), join(fx.root, 'src', 'abs-link.ts'));
    const spellings = [
      'a.ts',
      './a.ts',
      'src/../a.ts',
      'src//..//./a.ts',
      join(fx.root, 'a.ts'),
      `${fx.root}/src/../a.ts`,
      'link.ts',
      'src/abs-link.ts',
      'src-link/abs-link.ts',
    ];
    const keys = spellings.map((path) => fx.workspace.resolve(path).key);
    expect(new Set(keys)).toEqual(new Set([`fs:${fx.root}/a.ts`]));
    const readKeys = spellings.map((path) => fx.tool('read_file').access({ path } as never));
    for (const access of readKeys)
      expect(access).toEqual([{ key: `fs:${fx.root}/a.ts`, mode: 'read' }]);
  });

  it('keys a file that does not exist yet by where it would be, through a linked folder', async () => {
    const fx = await fsFixture({ tree: { src: {} }, links: { lib: 'src' } });
    expect(fx.workspace.resolve('lib/new/deep.ts').key).toBe(`fs:${fx.root}/src/new/deep.ts`);
    expect(fx.workspace.resolve('lib/new/deep.ts').display).toBe('src/new/deep.ts');
  });

  it('follows a dangling link to where it points', async () => {
    const fx = await fsFixture({ tree: { src: {} }, links: { 'later.ts': 'src/later.ts' } });
    expect(fx.workspace.resolve('later.ts').key).toBe(`fs:${fx.root}/src/later.ts`);
  });

  it('gives the root the key of its real path, and `.` as its display', async () => {
    const fx = await fsFixture();
    expect(fx.workspace.resolve('.')).toEqual({
      absolute: fx.root,
      display: '.',
      key: `fs:${fx.root}`,
    });
  });

  it('resolves a root given through a link to its real path', async () => {
    const outer = await tempDir();
    const real = join(outer, 'real');
    const fx = await fsFixture({ root: real, tree: { 'a.ts': 'a' } });
    await symlink(real, join(outer, 'alias'));
    const viaAlias = await fsFixture({ root: join(outer, 'alias') });
    expect(viaAlias.workspace.root).toBe(real);
    expect(viaAlias.workspace.resolve('a.ts').key).toBe(fx.workspace.resolve('a.ts').key);
    expect(viaAlias.workspace.resolve(join(outer, 'alias', 'a.ts')).key).toBe(`fs:${real}/a.ts`);
  });

  it('stops at a loop of links with invalid_path', async () => {
    const dir = await tempDir();
    await symlink('b', join(dir, 'a'));
    await symlink('a', join(dir, 'b'));
    expect(() => canonicalPath(join(dir, 'a', 'x'))).toThrow(FsToolsError);
    const fx = await fsFixture({ root: dir });
    let error: unknown;
    try {
      fx.workspace.resolve('a/x');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FsToolsError);
    expect((error as FsToolsError).code).toBe('invalid_path');
    expect((error as FsToolsError).message).toBe(
      'invalid path: `path` "a/x": too many levels of symbolic links (more than 40)',
    );
  });
});

describe('declarations, per input', () => {
  const calls = (inputs: Array<[string, object]>) =>
    inputs.map(([name, input], index) => ({ id: `c${index}`, name, input }));

  it('declares reads, writes and folder reads on canonical keys', async () => {
    const fx = await fsFixture({ tree: { src: { 'a.ts': 'a' }, 'b.ts': 'b' } });
    const registry = ToolRegistry.fromContainer(fx.container);
    const r = fx.root;
    const nodes = registry.toPlanNodes(
      calls([
        ['read_file', { path: 'src/a.ts' }],
        ['write_file', { path: './b.ts', content: '' }],
        ['edit_file', { path: 'b.ts', old_string: 'b', new_string: 'c' }],
        ['delete_file', { path: 'src/../b.ts' }],
        ['move_file', { from: 'b.ts', to: 'src/b.ts' }],
        ['list_dir', { path: 'src' }],
        ['list_dir', {}],
        ['glob', { pattern: '**/*.ts' }],
        ['glob', { pattern: '*.ts', path: 'src' }],
        ['grep', { pattern: 'a', path: 'src' }],
        ['stat', { path: 'src/a.ts' }],
      ]),
    );
    expect(nodes.map(({ parallelizable, access }) => ({ parallelizable, access }))).toEqual([
      { parallelizable: true, access: [{ key: `fs:${r}/src/a.ts`, mode: 'read' }] },
      { parallelizable: true, access: [{ key: `fs:${r}/b.ts`, mode: 'write' }] },
      { parallelizable: true, access: [{ key: `fs:${r}/b.ts`, mode: 'write' }] },
      { parallelizable: true, access: [{ key: `fs:${r}/b.ts`, mode: 'write' }] },
      {
        parallelizable: true,
        access: [
          { key: `fs:${r}/b.ts`, mode: 'write' },
          { key: `fs:${r}/src/b.ts`, mode: 'write' },
        ],
      },
      { parallelizable: true, access: [{ key: `fs:${r}/src`, mode: 'read' }] },
      { parallelizable: true, access: [{ key: `fs:${r}`, mode: 'read' }] },
      { parallelizable: true, access: [{ key: `fs:${r}`, mode: 'read' }] },
      { parallelizable: true, access: [{ key: `fs:${r}/src`, mode: 'read' }] },
      { parallelizable: true, access: [{ key: `fs:${r}/src`, mode: 'read' }] },
      { parallelizable: true, access: [{ key: `fs:${r}/src/a.ts`, mode: 'read' }] },
    ]);
  });

  it('plans a call whose path escapes as not concurrency-safe, without throwing', async () => {
    const outside = await tempDir();
    const fx = await fsFixture({ tree: { 'a.ts': 'a' }, links: { out: outside } });
    const registry = ToolRegistry.fromContainer(fx.container);
    const nodes = registry.toPlanNodes(
      calls([
        ['read_file', { path: '../x' }],
        ['write_file', { path: join(outside, 'x'), content: '' }],
        ['move_file', { from: 'a.ts', to: 'out/a.ts' }],
        ['list_dir', { path: 'out' }],
        ['grep', { pattern: 'x', path: '' }],
        ['stat', { path: 'a\0' }],
      ]),
    );
    expect(nodes.map((node) => node.parallelizable)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(fx.tool('read_file').access({ path: '../x' } as never)).toEqual([]);
  });
});
