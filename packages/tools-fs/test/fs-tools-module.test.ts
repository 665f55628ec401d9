import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolRegistry, toolMetadata } from '@toolwaves/core';
import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import {
  FS_READ_CACHE,
  FS_TOOLS,
  FS_WORKSPACE,
  FsToolsError,
  fsToolsModule,
  GlobTool,
  GrepTool,
  ListDirTool,
  ReadFileTool,
  StatTool,
} from '../src/index.js';
import { tempDir } from './temp-dir.js';

function thrown(run: () => unknown): FsToolsError {
  try {
    run();
  } catch (error) {
    if (error instanceof FsToolsError) return error;
    throw error;
  }
  throw new Error('expected an FsToolsError');
}

describe('fsToolsModule', () => {
  it('binds the nine tools, the workspace and the cache', async () => {
    const root = await tempDir();
    const container = new Container();
    container.load(fsToolsModule({ root }));
    const registry = ToolRegistry.fromContainer(container);
    expect(registry.names()).toEqual([
      'delete_file',
      'edit_file',
      'glob',
      'grep',
      'list_dir',
      'move_file',
      'read_file',
      'stat',
      'write_file',
    ]);
    expect(container.get(FS_WORKSPACE).root).toBe(root);
    expect(container.get(FS_READ_CACHE).enabled).toBe(false);
  });

  it('binds only the tools it is given', async () => {
    const container = new Container();
    const readOnly = [ReadFileTool, ListDirTool, GlobTool, GrepTool, StatTool];
    container.load(fsToolsModule({ root: await tempDir(), tools: readOnly }));
    expect(ToolRegistry.fromContainer(container).names()).toEqual([
      'glob',
      'grep',
      'list_dir',
      'read_file',
      'stat',
    ]);
  });

  it('exports every tool class in FS_TOOLS, each decorated with a described input', () => {
    expect(FS_TOOLS).toHaveLength(9);
    for (const cls of FS_TOOLS) {
      const meta = toolMetadata(cls);
      if (meta === undefined) throw new Error(`${cls.name} is not a tool`);
      expect(meta.description.length).toBeGreaterThan(20);
      const shape = (meta.input as unknown as { shape: Record<string, { description?: string }> })
        .shape;
      for (const [field, schema] of Object.entries(shape)) {
        expect(schema.description, `${meta.name}.${field}`).toMatch(/\w{3,}/);
      }
    }
  });

  it('enables the cache with cachedReads', async () => {
    const container = new Container();
    container.load(fsToolsModule({ root: await tempDir(), cachedReads: true }));
    expect(container.get(FS_READ_CACHE).enabled).toBe(true);
  });
});

describe('options are checked when the module is made', () => {
  it('refuses a root that does not exist, naming the field and the value', async () => {
    const missing = join(await tempDir(), 'nope');
    const error = thrown(() => fsToolsModule({ root: missing }));
    expect(error.code).toBe('invalid_root');
    expect(error.name).toBe('FsToolsError');
    expect(error.message).toBe(
      `Expected \`root\` to be the path of an existing directory, got \`${JSON.stringify(missing)}\` (string), which does not exist`,
    );
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('refuses a root that is a file', async () => {
    const file = join(await tempDir(), 'file.txt');
    await writeFile(file, 'x');
    const error = thrown(() => fsToolsModule({ root: file }));
    expect(error.code).toBe('invalid_root');
    expect(error.message).toContain('which is not a directory');
    expect(error.message).toContain(JSON.stringify(file));
  });

  it.each([[''], [42], [undefined], ['a\0b']])('refuses the root %j', (root) => {
    const error = thrown(() => fsToolsModule({ root } as never));
    expect(error.code).toBe('invalid_root');
    expect(error.message).toMatch(
      /^Expected `root` to be the path of an existing directory, got `/,
    );
  });

  it.each([
    ['maxReadBytes', 0, 'Expected `maxReadBytes` to be an integer from 1 and up, got `0` (number)'],
    [
      'maxReadLines',
      1.5,
      'Expected `maxReadLines` to be an integer from 1 and up, got `1.5` (number)',
    ],
    [
      'maxResults',
      '10',
      'Expected `maxResults` to be an integer from 1 and up, got `"10"` (string)',
    ],
    [
      'maxFileBytes',
      -1,
      'Expected `maxFileBytes` to be an integer from 1 and up, got `-1` (number)',
    ],
    [
      'maxCacheEntries',
      null,
      'Expected `maxCacheEntries` to be an integer from 1 and up, got `null` (null)',
    ],
    ['cachedReads', 'yes', 'Expected `cachedReads` to be a boolean, got `"yes"` (string)'],
    [
      'maxCommitWaitMs',
      0,
      'Expected `maxCommitWaitMs` to be an integer from 1 and up, got `0` (number)',
    ],
    [
      'maxCommitWaitMs',
      Number.POSITIVE_INFINITY,
      'Expected `maxCommitWaitMs` to be an integer from 1 and up, got `Infinity` (number)',
    ],
    [
      'fenceTempDir',
      '',
      'Expected `fenceTempDir` to be the path of an existing directory, got `""` (string)',
    ],
    [
      'fenceTempDir',
      '/no/such/folder',
      'Expected `fenceTempDir` to be the path of an existing directory, got `"/no/such/folder"` (string), which does not exist',
    ],
  ])('refuses %s = %j', async (field, value, message) => {
    const root = await tempDir();
    const error = thrown(() => fsToolsModule({ root, [field]: value } as never));
    expect(error.code).toBe('invalid_options');
    expect(error.message).toBe(message);
  });

  it.each([
    [
      { cachedRead: true },
      'Unknown option `cachedRead` in the options of fsToolsModule; did you mean `cachedReads`?',
    ],
    [
      { rootDir: '.' },
      'Unknown option `rootDir` in the options of fsToolsModule; did you mean `root`?',
    ],
    [
      { runCommand: { sandbx: 'reads' } },
      'Unknown option `sandbx` in `runCommand` of fsToolsModule; did you mean `sandbox`? The options are `sandbox`, `bwrap`',
    ],
    [
      { tools: ['read_file'] },
      'Expected `tools[0]` to be a tool class, got `"read_file"` (string)',
    ],
  ])('refuses %j, naming the option', async (extra, message) => {
    const root = await tempDir();
    const error = thrown(() => fsToolsModule({ root, ...extra } as never));
    expect(error.code).toBe('invalid_options');
    expect(error.message).toContain(message);
  });

  it('names the option meant by an unknown one even when root is missing', () => {
    const error = thrown(() => fsToolsModule({ rootDir: '/tmp' } as never));
    expect(error.code).toBe('invalid_options');
    expect(error.message).toMatch(/^Unknown option `rootDir`.*did you mean `root`\?/);
  });

  it('refuses options that are not an object', () => {
    const error = thrown(() => fsToolsModule(undefined as never));
    expect(error.code).toBe('invalid_options');
    expect(error.message).toContain('`root`');
  });
});
