import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolContext } from '@toolwaves/core';
import { ToolRegistry } from '@toolwaves/core';
import { describe, expect, it } from 'vitest';
import { EditRecords } from '../src/edit-records.js';
import { FS_HOST_FENCE, type HostFence } from '../src/index.js';
import { context, fsFixture } from './fixture.js';

/** The context of one attempt of a call of a durable turn: the same key on every run of it. */
function durable(idempotencyKey: string): ToolContext {
  return { ...context('durable'), idempotencyKey };
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('which fs write tools a durable turn may re-run', () => {
  it('write_file and edit_file declare idempotent; move_file, delete_file and run_command do not', async () => {
    const fx = await fsFixture({ module: { runCommand: true } });
    const registry = ToolRegistry.fromContainer(fx.container);
    const declared = Object.fromEntries(
      registry.names().map((name) => [name, registry.get(name)?.idempotent === true]),
    );
    expect(declared).toMatchObject({
      write_file: true,
      edit_file: true,
      move_file: false,
      delete_file: false,
      run_command: false,
    });
  });
});

describe('write_file run again', () => {
  it('leaves the same file and answers success', async () => {
    const fx = await fsFixture({ tree: { 'a.txt': 'old' } });
    const input = { path: 'a.txt', content: 'new\n' };
    const write = fx.tool('write_file');
    expect((await write.execute(input as never, durable('t/c1/1'))).isError).toBeUndefined();
    const again = await write.execute(input as never, durable('t/c1/1'));
    expect(again).toEqual({ content: 'wrote 1 line (4 bytes) to a.txt (replaced)' });
    expect(await readFile(join(fx.root, 'a.txt'), 'utf8')).toBe('new\n');
  });
});

describe('edit_file run again (a durable turn re-running a call a crash cut off)', () => {
  const input = { path: 'a.ts', old_string: 'x = 1', new_string: 'x = 2' };

  it('after the first run applied: answers success, already applied, and writes nothing', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'const x = 1;\nconst y = 1;\n' } });
    const edit = fx.tool('edit_file');
    expect(await edit.execute(input as never, durable('t/c1/1'))).toEqual({
      content: 'edited a.ts: replaced 1 occurrence',
    });
    const before = await stat(join(fx.root, 'a.ts'));
    const again = await edit.execute(input as never, durable('t/c1/1'));
    expect(again).toEqual({
      content:
        'edited a.ts: already applied by an earlier run of this call (idempotency key t/c1/1); nothing written',
    });
    expect(await readFile(join(fx.root, 'a.ts'), 'utf8')).toBe('const x = 2;\nconst y = 1;\n');
    // not even the same content written again: the file is the one the first run renamed
    expect((await stat(join(fx.root, 'a.ts'))).ino).toBe(before.ino);
  });

  it('does not apply twice an edit whose new text still holds the old one (replace_all)', async () => {
    const fx = await fsFixture({ tree: { 'list.txt': 'a,b,a\n' } });
    const edit = fx.tool('edit_file');
    const grow = { path: 'list.txt', old_string: 'a', new_string: 'aa', replace_all: true };
    await edit.execute(grow as never, durable('t/c7/1'));
    const again = await edit.execute(grow as never, durable('t/c7/1'));
    expect(again.isError).toBeUndefined();
    expect(again.content).toMatch(/already applied/);
    expect(await readFile(join(fx.root, 'list.txt'), 'utf8')).toBe('aa,b,aa\n');
  });

  it('after someone else changed the file: changed_since_read, nothing written', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'const x = 1;\nconst y = 1;\n' } });
    const edit = fx.tool('edit_file');
    await edit.execute(input as never, durable('t/c1/1'));
    // another writer: the new text is still there and the old one absent, yet this is not the
    // file the first run wrote
    const theirs = 'const x = 2;\nconst y = 3;\n';
    await writeFile(join(fx.root, 'a.ts'), theirs);
    const again = await edit.execute(input as never, durable('t/c1/1'));
    expect(again).toEqual({
      content:
        'a.ts changed since an earlier run of this edit_file call read it (another writer got there first): nothing was written; read the file again and redo the edit',
      isError: true,
    });
    expect(await readFile(join(fx.root, 'a.ts'), 'utf8')).toBe(theirs);
  });

  it('after someone else put the old text back: refuses too, instead of editing twice', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'const x = 1;\n' } });
    const edit = fx.tool('edit_file');
    await edit.execute(input as never, durable('t/c1/1'));
    await writeFile(join(fx.root, 'a.ts'), 'const x = 1; // again\n');
    const again = await edit.execute(input as never, durable('t/c1/1'));
    expect(again.isError).toBe(true);
    expect(again.content).toMatch(/changed since an earlier run/);
    expect(await readFile(join(fx.root, 'a.ts'), 'utf8')).toBe('const x = 1; // again\n');
  });

  it('when the first run was cut after its record and before its rename: edits', async () => {
    const original = 'const x = 1;\n';
    const fx = await fsFixture({ tree: { 'a.ts': original } });
    const fence = fx.container.get<HostFence>(FS_HOST_FENCE);
    // what the first run left: its record (the file as read, the file it was about to write)
    await new EditRecords({ fence }).write(
      { idempotencyKey: 't/c1/1', key: fx.workspace.resolve('a.ts').key },
      { before: sha256(original), after: sha256('const x = 2;\n') },
    );
    const again = await fx.tool('edit_file').execute(input as never, durable('t/c1/1'));
    expect(again).toEqual({ content: 'edited a.ts: replaced 1 occurrence' });
    expect(await readFile(join(fx.root, 'a.ts'), 'utf8')).toBe('const x = 2;\n');
  });

  it('with a damaged record: a fence_error, nothing written (it cannot tell what the earlier run did)', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'const x = 1;\n' } });
    const edit = fx.tool('edit_file');
    await edit.execute(input as never, durable('t/c1/1'));
    const fence = fx.container.get<HostFence>(FS_HOST_FENCE);
    const [record] = await readdir(join(fence.dir, 'edits'));
    await writeFile(join(fence.dir, 'edits', record ?? ''), '{"before":');
    await writeFile(join(fx.root, 'a.ts'), 'const x = 1;\n');
    const again = await edit.execute(input as never, durable('t/c1/1'));
    expect(again.isError).toBe(true);
    expect(again.content).toMatch(
      /^the host fence could not read an edit record .*edits\/[0-9a-f]{64}/,
    );
    expect(await readFile(join(fx.root, 'a.ts'), 'utf8')).toBe('const x = 1;\n');
  });

  it('another call (another key) gets the usual no_match; a call without a key keeps no record', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'const x = 1;\n' } });
    const edit = fx.tool('edit_file');
    await edit.execute(input as never, durable('t/c1/1'));
    const other = await edit.execute(input as never, durable('t/c2/1'));
    expect(other.isError).toBe(true);
    expect(other.content).toMatch(/^`old_string` was not found in a\.ts/);
    const fence = fx.container.get<HostFence>(FS_HOST_FENCE);
    expect(await readdir(join(fence.dir, 'edits'))).toHaveLength(1);
    const plain = await fsFixture({ tree: { 'a.ts': 'const x = 1;\n' } });
    await plain.run('edit_file', input);
    const again = await plain.run('edit_file', input);
    expect(again.content).toMatch(/^`old_string` was not found in a\.ts/);
    const plainFence = plain.container.get<HostFence>(FS_HOST_FENCE);
    expect(await readdir(plainFence.dir)).not.toContain('edits');
  });
});
