import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsFixture } from './fixture.js';

const numbered = (from: number, lines: readonly string[]): string =>
  lines.map((line, i) => `${String(from + i).padStart(6)}\t${line}`).join('\n');

describe('read_file', () => {
  it('answers the lines numbered like cat -n', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'one\ntwo\n\nfour' } });
    const out = await fx.run('read_file', { path: 'a.ts' });
    expect(out).toEqual({ content: '     1\tone\n     2\ttwo\n     3\t\n     4\tfour' });
  });

  it('does not count the newline at the end of the file as a line', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'one\ntwo\n' } });
    expect((await fx.run('read_file', { path: 'a.ts' })).content).toBe(numbered(1, ['one', 'two']));
  });

  it('reads a slice with offset and limit, and says how to read on', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
    const fx = await fsFixture({ tree: { 'a.txt': `${lines.join('\n')}\n` } });
    const out = await fx.run('read_file', { path: 'a.txt', offset: 3, limit: 4 });
    expect(out.content).toBe(
      `${numbered(3, lines.slice(2, 6))}\n\n[a.txt: showed lines 3-6 (limit 4 lines); more lines follow: read on with offset 7]`,
    );
    const tail = await fx.run('read_file', { path: 'a.txt', offset: 9, limit: 4 });
    expect(tail.content).toBe(numbered(9, ['line 9', 'line 10']));
  });

  it('stops at maxReadLines by default', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `x${i + 1}`);
    const fx = await fsFixture({
      tree: { 'big.txt': lines.join('\n') },
      module: { maxReadLines: 25 },
    });
    const out = await fx.run('read_file', { path: 'big.txt' });
    expect(out.content).toBe(
      `${numbered(1, lines.slice(0, 25))}\n\n[big.txt: showed lines 1-25 (limit 25 lines); more lines follow: read on with offset 26]`,
    );
  });

  it('stops at maxReadBytes and says where', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `${String(i + 1).padStart(9, '0')}`);
    // each line costs 10 bytes (9 digits and its newline): 35 bytes hold 3 lines
    const fx = await fsFixture({
      tree: { 'a.txt': lines.join('\n') },
      module: { maxReadBytes: 35 },
    });
    const out = await fx.run('read_file', { path: 'a.txt' });
    expect(out.content).toBe(
      `${numbered(1, lines.slice(0, 3))}\n\n[a.txt: showed lines 1-3, up to the 35-byte limit; more lines follow: read on with offset 4]`,
    );
  });

  it('cuts a line longer than maxReadBytes at a character boundary and says so', async () => {
    const long = 'é'.repeat(10); // 20 bytes
    const fx = await fsFixture({
      tree: { 'a.txt': `${long}\nshort` },
      module: { maxReadBytes: 7 },
    });
    const out = await fx.run('read_file', { path: 'a.txt' });
    expect(out.content).toBe(
      `${numbered(1, ['ééé'])}\n\n[line 1: longer than 7 bytes, cut]\n[a.txt: showed lines 1-1, up to the 7-byte limit; more lines follow: read on with offset 2]`,
    );
    expect(out.content).not.toContain('\uFFFD');
  });

  it('reads lines across its 64 KiB chunks', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `row ${i}`);
    const fx = await fsFixture({ tree: { 'a.txt': lines.join('\n') } });
    const out = await fx.run('read_file', { path: 'a.txt', offset: 15_000, limit: 3 });
    expect(out.content).toBe(
      `${numbered(15_000, lines.slice(14_999, 15_002))}\n\n[a.txt: showed lines 15000-15002 (limit 3 lines); more lines follow: read on with offset 15003]`,
    );
  });

  it('reports a binary file instead of dumping it', async () => {
    const fx = await fsFixture();
    await writeFile(join(fx.root, 'a.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02]));
    expect(await fx.run('read_file', { path: 'a.bin' })).toEqual({
      content: '(binary file: a.bin, 5 bytes; not shown)',
    });
  });

  it('answers an empty file and an offset past the end with a note', async () => {
    const fx = await fsFixture({ tree: { 'empty.txt': '', 'a.txt': 'a\nb\n' } });
    expect((await fx.run('read_file', { path: 'empty.txt' })).content).toBe(
      '(empty file: empty.txt)',
    );
    expect((await fx.run('read_file', { path: 'a.txt', offset: 5 })).content).toBe(
      '(offset 5 is past the end of a.txt, which has 2 lines)',
    );
  });

  it('answers a missing file, a folder and a FIFO with soft errors', async () => {
    const fx = await fsFixture({ tree: { src: {} } });
    expect(await fx.run('read_file', { path: 'src/missing.ts' })).toEqual({
      content: 'not found: `src/missing.ts`',
      isError: true,
    });
    expect(await fx.run('read_file', { path: 'src' })).toEqual({
      content: 'is a directory: `src` (list_dir shows what it holds)',
      isError: true,
    });
    execFileSync('mkfifo', [join(fx.root, 'pipe')]);
    // opened without blocking, then refused
    expect(await fx.run('read_file', { path: 'pipe' })).toEqual({
      content: 'not a regular file: `pipe`',
      isError: true,
    });
  });

  it('names the escape when a path leads out', async () => {
    const fx = await fsFixture();
    expect(await fx.run('read_file', { path: '../secret' })).toEqual({
      content: `path escapes the workspace: \`path\` "../secret" resolves outside ${fx.root}`,
      isError: true,
    });
    expect(await fx.run('read_file', { path: '' })).toEqual({
      content: 'invalid path: `path` is empty',
      isError: true,
    });
  });
});
