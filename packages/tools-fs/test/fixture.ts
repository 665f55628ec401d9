import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolContext, ToolOutput } from '@toolwaves/core';
import { Container, type Newable } from 'inversify';
import {
  FS_READ_CACHE,
  FS_TOOLS,
  FS_WORKSPACE,
  type FsToolsModuleOptions,
  fsToolsModule,
  type ReadCache,
  type Workspace,
} from '../src/index.js';
import { tempDir } from './temp-dir.js';

/** A file tree: a string is a file's content, an object a folder. */
export interface Tree {
  readonly [name: string]: string | Tree;
}

/** Creates the tree under `dir`. */
export async function writeTree(dir: string, tree: Tree): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, value] of Object.entries(tree)) {
    const path = join(dir, name);
    if (typeof value === 'string') await writeFile(path, value);
    else await writeTree(path, value);
  }
}

/**
 * {@link writeTree}, synchronously: a test that rebuilds a tree thousands of times (the sandbox
 * properties) spends a fraction of the CPU time it spends awaiting each step.
 */
export function writeTreeSync(dir: string, tree: Tree): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, value] of Object.entries(tree)) {
    const path = join(dir, name);
    if (typeof value === 'string') writeFileSync(path, value);
    else writeTreeSync(path, value);
  }
}

/** A tool instance as the tests call it. */
export interface FsToolInstance {
  readonly name: string;
  isConcurrencySafe(input: never): boolean;
  access(input: never): readonly { key: string; mode: string }[];
  execute(input: never, context?: ToolContext): Promise<ToolOutput>;
}

/** A workspace in a temporary folder with the tools bound in a container. */
export interface FsFixture {
  readonly root: string;
  readonly container: Container;
  readonly workspace: Workspace;
  readonly cache: ReadCache;
  /** Runs a tool's `execute` directly. */
  run(name: string, input: object): Promise<ToolOutput>;
  tool(name: string): FsToolInstance;
}

/** A temporary root holding `tree` (plus `links`: name → target), with every fs tool bound. */
export async function fsFixture(
  options: {
    tree?: Tree;
    links?: Record<string, string>;
    module?: Omit<FsToolsModuleOptions, 'root'>;
    root?: string;
  } = {},
): Promise<FsFixture> {
  const root = options.root ?? (await tempDir());
  await writeTree(root, options.tree ?? {});
  for (const [name, target] of Object.entries(options.links ?? {})) {
    await symlink(target, join(root, name));
  }
  const container = new Container();
  // a fence of its own per test (its temporary folder is removed after the test), unless asked
  const fenceTempDir = options.module?.fenceTempDir ?? (await tempDir());
  container.load(fsToolsModule({ root, fenceTempDir, ...options.module }));
  const byName = new Map<string, FsToolInstance>();
  for (const cls of FS_TOOLS as readonly Newable<object>[]) {
    if (!container.isBound(cls)) continue;
    const instance = container.get(cls) as unknown as FsToolInstance;
    byName.set(instance.name, instance);
  }
  const tool = (name: string): FsToolInstance => {
    const found = byName.get(name);
    if (found === undefined) throw new Error(`no tool ${name}`);
    return found;
  };
  return {
    root,
    container,
    workspace: container.get(FS_WORKSPACE),
    cache: container.get(FS_READ_CACHE),
    tool,
    run: (name, input) => tool(name).execute(input as never, context(name)),
  };
}

let ids = 0;

/** A context for calling `execute` directly. */
export function context(prefix = 'call'): ToolContext {
  ids += 1;
  return { toolCallId: `${prefix}-${ids}`, signal: new AbortController().signal, attempt: 1 };
}
