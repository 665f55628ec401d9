/**
 * The trust policy against the real `@modelcontextprotocol/server-filesystem` over stdio: by
 * default its annotations are not believed (every tool runs alone), and the operator's override
 * map declares the tools it vouches for.
 */
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type ToolCall, ToolRegistry } from '@toolwaves/core';
import { type DispatchEvent, Dispatcher } from '@toolwaves/executor-rx';
import { greedyPlanner } from '@toolwaves/planner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMcpTools, filesystemServerOverrides, McpPathKeys, type McpTool } from '../src/index.js';
import { serverScript } from './filesystem-server-script.js';

let root: string;
let client: Client;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolwaves-mcp-trust-')));
  await mkdir(join(root, 'docs'));
  await writeFile(join(root, 'docs', 'a.txt'), 'alpha');
  await writeFile(join(root, 'docs', 'b.txt'), 'beta');
  client = new Client({ name: 'toolwaves-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [serverScript(), root],
      stderr: 'ignore',
    }),
  );
}, 30_000);

afterAll(async () => {
  await client?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

const calls = (list: Array<[string, Record<string, unknown>]>): ToolCall[] =>
  list.map(([name, input], index) => ({ id: `call-${index}`, name, input }));

const planWaves = (registry: ToolRegistry, batch: readonly ToolCall[]): number[][] =>
  greedyPlanner()
    .plan(registry.toPlanNodes(batch))
    .waves.map((wave) => [...wave.calls]);

describe("trust: 'none' against the filesystem server", () => {
  it('believes no annotation by default: every tool runs alone, even those marked read-only', async () => {
    const registry = new ToolRegistry();
    await addMcpTools({ registry, client, server: 'fs' });
    const read = registry.get('read_text_file') as McpTool;
    // The server does mark it read-only: the hint is there, and ignored.
    expect(read.annotations?.readOnlyHint).toBe(true);
    expect(read.readOnly).toBe(false);
    expect(read.idempotent).toBe(false);
    const batch = calls([
      ['read_text_file', { path: 'docs/a.txt' }],
      ['read_text_file', { path: 'docs/b.txt' }],
      ['list_directory', { path: 'docs' }],
    ]);
    expect(registry.toPlanNodes(batch).map((node) => node.parallelizable)).toEqual([
      false,
      false,
      false,
    ]);
    expect(planWaves(registry, batch)).toEqual([[0], [1], [2]]);
  });

  it('runs what the override map declares, by its declarations; the rest alone', async () => {
    const keys = await McpPathKeys.fromServer({ client, server: 'fs' });
    const registry = new ToolRegistry();
    await addMcpTools({
      registry,
      client,
      server: 'fs',
      trust: 'none',
      overrides: {
        read_text_file: {
          readOnly: true,
          access: keys.access((input) => [{ path: input.path, mode: 'read' }]),
        },
        write_file: { access: keys.access((input) => [{ path: input.path, mode: 'write' }]) },
      },
    });
    const batch = calls([
      ['read_text_file', { path: 'docs/a.txt' }],
      ['write_file', { path: 'docs/c.txt', content: 'gamma' }],
      ['read_text_file', { path: `${root}/docs/b.txt` }],
      ['list_directory', { path: 'docs' }],
      ['read_text_file', { path: './docs/c.txt' }],
    ]);
    expect(registry.toPlanNodes(batch).map((node) => node.parallelizable)).toEqual([
      true,
      true,
      true,
      false, // not in the override map: alone
      true,
    ]);
    // 0, 1, 2 touch different files; the listing runs alone; the read of c follows its write.
    expect(planWaves(registry, batch)).toEqual([[0, 1, 2], [3], [4]]);

    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const events: DispatchEvent[] = [];
    const results = await dispatcher.dispatch(batch, { onEvent: (e) => events.push(e) });
    expect(events.flatMap((e) => (e.type === 'wave-start' ? [[...e.calls]] : []))).toEqual([
      [0, 1, 2],
      [3],
      [4],
    ]);
    expect(results.map((r) => r.isError)).toEqual([false, false, false, false, false]);
    expect(results.map((r) => r.content)).toEqual([
      'alpha',
      'Successfully wrote to docs/c.txt',
      'beta',
      expect.stringContaining('[FILE] c.txt'),
      'gamma',
    ]);
    expect(await readFile(join(root, 'docs', 'c.txt'), 'utf8')).toBe('gamma');
  });

  it('makes the preset write every path unless told to trust the server', async () => {
    const batch = calls([
      ['read_text_file', { path: 'docs/a.txt' }],
      ['read_text_file', { path: 'docs/a.txt' }],
      ['read_text_file', { path: 'docs/b.txt' }],
    ]);
    const untrusted = new ToolRegistry();
    await addMcpTools({
      registry: untrusted,
      client,
      server: 'fs',
      overrides: await filesystemServerOverrides({ client, server: 'fs' }),
    });
    // Two "reads" of one file are writes of it for a server not trusted: they serialize.
    expect(planWaves(untrusted, batch)).toEqual([[0, 2], [1]]);
    const trusted = new ToolRegistry();
    await addMcpTools({
      registry: trusted,
      client,
      server: 'fs',
      trust: 'annotations',
      overrides: await filesystemServerOverrides({ client, server: 'fs', trust: 'annotations' }),
    });
    expect(planWaves(trusted, batch)).toEqual([[0, 1, 2]]);
  });
});
