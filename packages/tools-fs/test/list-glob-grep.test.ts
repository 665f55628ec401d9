import { execFileSync } from 'node:child_process';
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsFixture, writeTree } from './fixture.js';
import { tempDir } from './temp-dir.js';

describe('list_dir', () => {
  it('lists a folder sorted, with kinds, sizes and link targets', async () => {
    const outside = await tempDir();
    const fx = await fsFixture({
      tree: { src: { 'b.ts': 'bb', 'a.ts': 'a', lib: {}, '.env': 'x' } },
    });
    await symlink('a.ts', join(fx.root, 'src', 'to-a'));
    await symlink(outside, join(fx.root, 'src', 'out'));
    await symlink('gone.ts', join(fx.root, 'src', 'broken'));
    execFileSync('mkfifo', [join(fx.root, 'src', 'pipe')]);
    const out = await fx.run('list_dir', { path: 'src' });
    expect(out).toEqual({
      content: [
        '.env (1 byte)',
        'a.ts (1 byte)',
        'b.ts (2 bytes)',
        'broken@ -> src/gone.ts (missing)',
        'lib/',
        'out@ -> (outside the workspace)',
        'pipe (fifo)',
        'to-a@ -> src/a.ts',
      ].join('\n'),
    });
  });

  it('lists the root by default, and says when a folder is empty', async () => {
    const fx = await fsFixture({ tree: { empty: {}, 'z.md': '' } });
    expect((await fx.run('list_dir', {})).content).toBe('empty/\nz.md (0 bytes)');
    expect((await fx.run('list_dir', { path: 'empty' })).content).toBe('(empty directory: empty)');
  });

  it('caps the listing at maxResults with a note', async () => {
    const fx = await fsFixture({
      tree: Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`f${i}`, ''])),
      module: { maxResults: 3 },
    });
    expect((await fx.run('list_dir', {})).content).toBe(
      'f0 (0 bytes)\nf1 (0 bytes)\nf2 (0 bytes)\n\n[showing the first 3 of 5 entries]',
    );
  });

  it('answers a file and a missing folder with soft errors', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': '' } });
    expect(await fx.run('list_dir', { path: 'a.ts' })).toEqual({
      content: 'not a directory: `a.ts` (read_file reads a file)',
      isError: true,
    });
    expect(await fx.run('list_dir', { path: 'nope' })).toEqual({
      content: 'not found: `nope`',
      isError: true,
    });
  });
});

describe('glob', () => {
  it('answers matching files relative to the root, sorted', async () => {
    const fx = await fsFixture({
      tree: {
        'z.ts': '',
        src: { 'b.ts': '', 'a.ts': '', 'c.js': '', lib: { 'd.ts': '' }, '.cache': { 'e.ts': '' } },
        '.git': { 'f.ts': '' },
      },
    });
    expect((await fx.run('glob', { pattern: '**/*.ts' })).content).toBe(
      'src/a.ts\nsrc/b.ts\nsrc/lib/d.ts\nz.ts',
    );
    expect((await fx.run('glob', { pattern: '*.ts', path: 'src' })).content).toBe(
      'src/a.ts\nsrc/b.ts',
    );
    expect((await fx.run('glob', { pattern: '.git/*' })).content).toBe('.git/f.ts');
    expect((await fx.run('glob', { pattern: 'src/*' })).content).toBe(
      'src/a.ts\nsrc/b.ts\nsrc/c.js',
    );
  });

  it('lists a link as a file and never walks into it', async () => {
    const outside = await tempDir();
    await writeTree(outside, { 'secret.ts': 'x', deep: { 'more.ts': 'x' } });
    const fx = await fsFixture({ tree: { src: { 'a.ts': '' } } });
    await symlink(outside, join(fx.root, 'out'));
    await symlink('src', join(fx.root, 'loop'));
    expect((await fx.run('glob', { pattern: '**/*' })).content).toBe('loop\nout\nsrc/a.ts');
    expect((await fx.run('glob', { pattern: 'out/**/*.ts' })).content).toBe(
      'no files match `out/**/*.ts` in .',
    );
  });

  it('caps the matches at maxResults with a note', async () => {
    const fx = await fsFixture({
      tree: Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`f${i}.ts`, ''])),
      module: { maxResults: 2 },
    });
    expect((await fx.run('glob', { pattern: '*.ts' })).content).toBe(
      'f0.ts\nf1.ts\n\n[showing the first 2 of 4 matches]',
    );
  });

  it('answers a bad pattern, a file as path and a missing path with soft errors', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': '' } });
    expect(await fx.run('glob', { pattern: '../*' })).toMatchObject({ isError: true });
    expect(await fx.run('glob', { pattern: '*', path: 'a.ts' })).toEqual({
      content: 'not a directory: `a.ts` (glob searches a folder)',
      isError: true,
    });
    expect(await fx.run('glob', { pattern: '*', path: 'nope' })).toEqual({
      content: 'not found: `nope`',
      isError: true,
    });
  });
});

describe('grep', () => {
  const tree = {
    'README.md': 'TODO: docs\n',
    src: {
      'a.ts': 'const a = 1;\n// TODO: a\nexport { a };\n',
      'b.ts': 'todo lowercase\r\nTODO: b\r\n',
      lib: { 'c.js': 'TODO: c' },
    },
    '.hidden': { 'h.ts': 'TODO: hidden' },
  };

  it('answers path:line:text sorted by path and line, skipping hidden entries', async () => {
    const fx = await fsFixture({ tree });
    expect((await fx.run('grep', { pattern: 'TODO' })).content).toBe(
      [
        'README.md:1:TODO: docs',
        'src/a.ts:2:// TODO: a',
        'src/b.ts:2:TODO: b',
        'src/lib/c.js:1:TODO: c',
      ].join('\n'),
    );
  });

  it('narrows by path and glob, and ignores case on request', async () => {
    const fx = await fsFixture({ tree });
    expect((await fx.run('grep', { pattern: 'TODO', glob: '*.ts' })).content).toBe(
      'src/a.ts:2:// TODO: a\nsrc/b.ts:2:TODO: b',
    );
    expect(
      (await fx.run('grep', { pattern: 'todo', path: 'src', glob: 'lib/*.js', ignore_case: true }))
        .content,
    ).toBe('src/lib/c.js:1:TODO: c');
    expect(
      (await fx.run('grep', { pattern: '^todo', path: 'src/b.ts', ignore_case: true })).content,
    ).toBe('src/b.ts:1:todo lowercase\nsrc/b.ts:2:TODO: b');
    expect((await fx.run('grep', { pattern: 'TODO', path: '.hidden' })).content).toBe(
      '.hidden/h.ts:1:TODO: hidden',
    );
    expect((await fx.run('grep', { pattern: 'a \\= \\d;$', path: 'src' })).content).toBe(
      'src/a.ts:1:const a = 1;',
    );
  });

  it('does not match a phantom empty line after the last newline', async () => {
    const fx = await fsFixture({ tree: { 'a.txt': 'x\n\ny\n' } });
    expect((await fx.run('grep', { pattern: '^$' })).content).toBe('a.txt:2:');
  });

  it('says when nothing matches, and counts skipped binary and oversized files', async () => {
    const fx = await fsFixture({
      tree: { 'a.ts': 'nothing', 'big.ts': 'x'.repeat(50) },
      module: { maxFileBytes: 40 },
    });
    await writeFile(join(fx.root, 'b.bin'), Buffer.from('TODO\0'));
    expect((await fx.run('grep', { pattern: 'TODO' })).content).toBe(
      'no matches for /TODO/ in .\n\n[skipped 2 binary, oversized or unreadable files]',
    );
  });

  it('never reads through a link', async () => {
    const outside = await tempDir();
    await writeTree(outside, { 'secret.ts': 'TODO: secret' });
    const fx = await fsFixture({ tree: { 'a.ts': 'TODO: a' } });
    await symlink(join(outside, 'secret.ts'), join(fx.root, 'link.ts'));
    await symlink(outside, join(fx.root, 'out'));
    expect((await fx.run('grep', { pattern: 'TODO' })).content).toBe('a.ts:1:TODO: a');
  });

  it('caps matching lines at maxResults and shows long lines as an excerpt', async () => {
    const long = `${'a'.repeat(500)}MATCH${'b'.repeat(500)}`;
    const fx = await fsFixture({
      tree: { 'a.txt': 'hit 1\nhit 2\nhit 3\n', 'long.txt': long },
      module: { maxResults: 2 },
    });
    expect((await fx.run('grep', { pattern: 'hit' })).content).toBe(
      'a.txt:1:hit 1\na.txt:2:hit 2\n\n[stopped at 2 matching lines: narrow the pattern, path or glob]',
    );
    const excerpt = (await fx.run('grep', { pattern: 'MATCH' })).content;
    expect(excerpt).toBe(`long.txt:1:…${'a'.repeat(100)}MATCH${'b'.repeat(195)}…`);
  });

  it('answers a bad regular expression and a bad file with soft errors', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'x' } });
    await writeFile(join(fx.root, 'b.bin'), Buffer.from([0]));
    expect(await fx.run('grep', { pattern: '(unclosed' })).toEqual({
      content:
        'invalid regular expression `(unclosed`: Invalid regular expression: /(unclosed/: Unterminated group',
      isError: true,
    });
    expect(await fx.run('grep', { pattern: 'x', path: 'b.bin' })).toEqual({
      content: 'binary file: `b.bin` is not text',
      isError: true,
    });
    expect(await fx.run('grep', { pattern: 'x', path: 'nope' })).toEqual({
      content: 'not found: `nope`',
      isError: true,
    });
  });
});

describe('glob and grep stop when their call is aborted', () => {
  it.each([
    ['glob', { pattern: '**/*' }],
    ['grep', { pattern: 'x' }],
  ])('%s rejects with the abort reason and answers nothing', async (name, input) => {
    const fx = await fsFixture({ tree: { src: { 'a.ts': 'x' } } });
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(
      fx
        .tool(name)
        .execute(input as never, { toolCallId: 'c', signal: controller.signal, attempt: 1 }),
    ).rejects.toBe(reason);
  });
});
