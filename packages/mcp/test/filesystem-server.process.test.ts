/**
 * Against the real `@modelcontextprotocol/server-filesystem` over stdio: its process is spawned
 * from this package's node_modules (no global install) and closed after the tests.
 */
import { getEventListeners } from 'node:events';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type ToolCall, ToolRegistry } from '@toolwaves/core';
import { type DispatchEvent, Dispatcher } from '@toolwaves/executor-rx';
import { greedyPlanner } from '@toolwaves/planner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMcpTools,
  filesystemServerOverrides,
  McpPathKeys,
  type McpToolOverride,
} from '../src/index.js';
import { serverScript } from './filesystem-server-script.js';

let outside: string;
let root: string;
let client: Client;

beforeAll(async () => {
  outside = await realpath(await mkdtemp(join(tmpdir(), 'toolwaves-mcp-fs-')));
  root = join(outside, 'root');
  await mkdir(root);
  client = new Client({ name: 'toolwaves-test', version: '1.0.0' });
  // The server is given its root through a symbolic link: it lists both spellings.
  await symlink(root, join(outside, 'root-link'));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [serverScript(), join(outside, 'root-link')],
      stderr: 'ignore',
    }),
  );
}, 30_000);

afterAll(async () => {
  await client?.close();
  if (outside !== undefined) await rm(outside, { recursive: true, force: true });
});

/** A fresh folder under the root with these files, and its path. */
async function tree(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(root, name);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

async function registryWith(overrides: Record<string, McpToolOverride>): Promise<ToolRegistry> {
  const registry = new ToolRegistry();
  await addMcpTools({ registry, client, server: 'fs', overrides, trust: 'annotations' });
  return registry;
}

const calls = (list: Array<[string, Record<string, unknown>]>): ToolCall[] =>
  list.map(([name, input], index) => ({ id: `call-${index}`, name, input }));

/** Runs the batch for real in parallel; the waves it ran and the results. */
async function run(registry: ToolRegistry, batch: readonly ToolCall[], signal?: AbortSignal) {
  const dispatcher = new Dispatcher({ registry, mode: 'parallel', planner: greedyPlanner() });
  const events: DispatchEvent[] = [];
  await new Promise<void>((done, fail) =>
    dispatcher
      .run(batch, signal === undefined ? {} : { signal })
      .subscribe({ next: (e) => events.push(e), error: fail, complete: done }),
  );
  const end = events.find((e) => e.type === 'batch-end');
  if (end?.type !== 'batch-end') throw new Error('no batch-end');
  const waves = events.flatMap((e) => (e.type === 'wave-start' ? [[...e.calls]] : []));
  return { waves, results: end.results };
}

const planWaves = (registry: ToolRegistry, batch: readonly ToolCall[]): number[][] =>
  greedyPlanner()
    .plan(registry.toPlanNodes(batch))
    .waves.map((wave) => [...wave.calls]);

describe('McpPathKeys against the filesystem server', () => {
  it('learns the allowed directories from the server and keys every spelling of a file alike', async () => {
    const dir = await tree('keys', { 'a.txt': 'a', 'sub/x.txt': 'x' });
    await symlink(join(dir, 'a.txt'), join(dir, 'link.txt'));
    const keys = await McpPathKeys.fromServer({ client, server: 'fs' });
    // The server lists the root as given (through the link) and as resolved.
    expect(keys.roots).toEqual(expect.arrayContaining([join(outside, 'root-link')]));
    const expected = { key: `mcp:fs${dir}/a.txt`, exact: true };
    for (const path of [
      'keys/a.txt',
      './keys/a.txt',
      'keys/sub/../a.txt',
      `${dir}/a.txt`,
      `${dir}//./a.txt`,
      join(outside, 'root-link', 'keys', 'a.txt'),
      'keys/link.txt',
    ]) {
      expect(keys.keyOf(path), path).toEqual(expected);
    }
    expect(keys.keyOf('keys/b.txt')).toEqual({ key: `mcp:fs${dir}/b.txt`, exact: true });
  });

  it('falls back to the coarse server key for what it cannot resolve inside the roots', async () => {
    const keys = await McpPathKeys.fromServer({ client, server: 'fs' });
    for (const path of ['/etc/hosts', '../outside.txt', '', 42, undefined]) {
      const answer = keys.keyOf(path);
      expect(answer.key, String(path)).toBe('mcp:fs');
      expect(answer.exact).toBe(false);
    }
    const unknownRoots = new McpPathKeys({ server: 'fs', roots: [] });
    expect(unknownRoots.keyOf(`${root}/a.txt`)).toMatchObject({ key: 'mcp:fs', exact: false });
  });
});

describe('the filesystem-server preset, dispatched for real', () => {
  it('declares reads and writes from the annotations, and every path of a call', async () => {
    const dir = await tree('declare', { 'a.txt': 'a' });
    const registry = await registryWith(
      await filesystemServerOverrides({ client, server: 'fs', trust: 'annotations' }),
    );
    const key = (name: string) => `mcp:fs${dir}/${name}`;
    const batch = calls([
      ['move_file', { source: 'declare/a.txt', destination: 'declare/b.txt' }],
      ['read_multiple_files', { paths: ['declare/a.txt', `${dir}/c.txt`] }],
      ['edit_file', { path: 'declare/a.txt', edits: [], dryRun: true }],
      ['edit_file', { path: 'declare/a.txt', edits: [] }],
      ['create_directory', { path: 'declare/sub' }],
      ['list_allowed_directories', {}],
      ['read_multiple_files', { paths: 'declare/a.txt' }],
    ]);
    expect(registry.toPlanNodes(batch).map((node) => node.access)).toEqual([
      [
        { key: key('a.txt'), mode: 'write' },
        { key: key('b.txt'), mode: 'write' },
      ],
      [
        { key: key('a.txt'), mode: 'read' },
        { key: key('c.txt'), mode: 'read' },
      ],
      [{ key: key('a.txt'), mode: 'read' }],
      [{ key: key('a.txt'), mode: 'write' }],
      [{ key: key('sub'), mode: 'write' }],
      [{ key: 'mcp:fs', mode: 'read' }], // no path: the coarse default
      [{ key: 'mcp:fs', mode: 'read' }], // `paths` not a list: the coarse key, safe
    ]);
  });

  it('serializes aliases of one file: a write to alias.txt, then a read by absolute path', async () => {
    const dir = await tree('alias', { 'alias.txt': 'old', 'other.txt': 'other' });
    const registry = await registryWith(
      await filesystemServerOverrides({ client, server: 'fs', trust: 'annotations' }),
    );
    const batch = calls([
      ['write_file', { path: 'alias/alias.txt', content: 'new' }],
      ['read_text_file', { path: `${dir}/alias.txt` }],
      ['read_text_file', { path: 'alias/other.txt' }],
    ]);
    // Keyed on the raw path string, the two spellings would not conflict: one wave, a race.
    const raw = (mode: 'read' | 'write'): McpToolOverride => ({
      access: (input) => [{ key: `mcp:fs/${String(input.path)}`, mode }],
    });
    const rawRegistry = await registryWith({
      write_file: raw('write'),
      read_text_file: raw('read'),
    });
    expect(planWaves(rawRegistry, batch)).toEqual([[0, 1, 2]]);

    const { waves, results } = await run(registry, batch);
    // The read of the same file conflicts with the write before it: a later wave, seeing it.
    expect(waves).toEqual([[0, 2], [1]]);
    expect(results.map((r) => r.isError)).toEqual([false, false, false]);
    expect(results[1]?.content).toBe('new');
    expect(results[2]?.content).toBe('other');
  });

  it('overlaps writes to different files; move_file writes both of its paths', async () => {
    const dir = await tree('move', { 'a.txt': 'a', 'from.txt': 'moved', 'c.txt': 'c' });
    const registry = await registryWith(
      await filesystemServerOverrides({ client, server: 'fs', trust: 'annotations' }),
    );
    const batch = calls([
      ['write_file', { path: 'move/a.txt', content: 'A' }],
      ['write_file', { path: 'move/b.txt', content: 'B' }],
      ['move_file', { source: 'move/from.txt', destination: `${dir}/to.txt` }],
      ['read_text_file', { path: './move/to.txt' }],
      ['get_file_info', { path: 'move/from.txt' }],
      ['read_text_file', { path: 'move/c.txt' }],
    ]);
    const { waves, results } = await run(registry, batch);
    // 0, 1, 2 touch different files; 3 reads the destination and 4 the source of the move, so
    // both wait for it; 5 touches nothing written.
    expect(waves).toEqual([
      [0, 1, 2, 5],
      [3, 4],
    ]);
    expect(results[3]).toMatchObject({ content: 'moved', isError: false });
    expect(results[4]?.isError).toBe(true); // the source is gone after the move
    expect(await readFile(join(dir, 'b.txt'), 'utf8')).toBe('B');
  });

  it('runs 17 mixed calls in 2 waves where the coarse mapping needs 12', async () => {
    const dir = await tree('mixed', {
      'a.txt': 'a',
      'b.txt': 'bee',
      'd.txt': 'd',
      'x1.txt': 'x1',
      'x2.txt': 'x2',
      'x3.txt': 'x3',
      'x4.txt': 'x4',
      'x5.txt': 'x5',
      'docs/readme.md': 'docs',
    });
    await symlink(join(dir, 'a.txt'), join(dir, 'link-to-a.txt'));
    const batch = calls([
      ['read_text_file', { path: 'mixed/x1.txt' }], // 0 read x1
      ['write_file', { path: 'mixed/a.txt', content: 'A2' }], // 1 write a
      ['get_file_info', { path: 'mixed/x2.txt' }], // 2 read x2
      ['edit_file', { path: 'mixed/b.txt', edits: [{ oldText: 'bee', newText: 'B2' }] }], // 3 write b
      ['read_text_file', { path: './mixed/x3.txt' }], // 4 read x3
      ['write_file', { path: 'mixed/sub/../c.txt', content: 'C2' }], // 5 write c
      ['list_directory', { path: 'mixed/docs' }], // 6 read docs
      ['create_directory', { path: 'mixed/out' }], // 7 write out
      ['read_multiple_files', { paths: ['mixed/x4.txt', 'mixed/x5.txt'] }], // 8 read x4, x5
      ['move_file', { source: 'mixed/d.txt', destination: 'mixed/d2.txt' }], // 9 write d, d2
      ['read_text_file', { path: `${dir}/a.txt` }], // 10 read a (alias of 1)
      ['read_text_file', { path: 'mixed/b.txt' }], // 11 read b (3)
      ['get_file_info', { path: 'mixed/./c.txt' }], // 12 read c (5)
      ['list_directory', { path: 'mixed/out' }], // 13 read out (7)
      ['read_text_file', { path: 'mixed/d2.txt' }], // 14 read d2 (9)
      ['read_text_file', { path: 'mixed/link-to-a.txt' }], // 15 read a through a link (1)
      ['write_file', { path: 'mixed/x1.txt', content: 'X1' }], // 16 write x1 (0)
    ]);
    expect(batch).toHaveLength(17);

    // Coarse (every write on `mcp:fs`): each write waits for every call before it and every
    // later call waits for it. Reads and writes alternate for calls 0–9 (ten waves), the six
    // reads 10–15 share one, the write 16 comes last: 12 waves.
    const coarse = planWaves(await registryWith({}), batch);
    expect(coarse).toHaveLength(12);

    // Per path: calls 0–9 touch ten different paths (one wave); 10–15 read what 1, 3, 5, 7, 9
    // wrote (the next wave); 16 writes x1, read in wave one only, so it joins wave two.
    const registry = await registryWith(
      await filesystemServerOverrides({ client, server: 'fs', trust: 'annotations' }),
    );
    expect(planWaves(registry, batch)).toEqual([
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      [10, 11, 12, 13, 14, 15, 16],
    ]);

    // The MCP SDK leaves an `abort` listener on the signal of each request: none may land on
    // the caller's signal (17 would pass Node's limit of 10 and print a warning).
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    const caller = new AbortController();
    const { waves, results } = await run(registry, batch, caller.signal).finally(() =>
      process.off('warning', onWarning),
    );
    expect(getEventListeners(caller.signal, 'abort')).toEqual([]);
    expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
    expect(waves).toHaveLength(2);
    expect(results.filter((r) => r.isError).map((r) => r.toolCallId)).toEqual([]);
    expect(results[0]?.content).toBe('x1'); // read before the later write of x1
    expect(results[10]?.content).toBe('A2');
    expect(results[11]?.content).toBe('B2');
    expect(results[14]?.content).toBe('d');
    expect(results[15]?.content).toBe('A2');
    expect(await readFile(join(dir, 'x1.txt'), 'utf8')).toBe('X1');
  });
});
