import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  bindTools,
  type ToolCall,
  ToolClass,
  type ToolContext,
  ToolRegistry,
  tool,
} from '@toolwaves/core';
import { type DispatchEvent, Dispatcher } from '@toolwaves/executor-rx';
import { greedyPlanner } from '@toolwaves/planner';
import { inject } from 'inversify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FS_HOST_FENCE, type HostFence, Workspace } from '../src/index.js';
import { type FsFixture, fsFixture } from './fixture.js';

const appendInput = z.object({ path: z.string(), line: z.string() });
type AppendInput = z.infer<typeof appendInput>;

/**
 * A tool of the user's own that writes the same files as the fs tools, on the same keys, and
 * commits through the same host fence (the root README's example).
 */
@tool({ name: 'append_line', description: 'Append a line to a file', input: appendInput })
class AppendLine extends ToolClass {
  constructor(
    @inject(Workspace) private readonly workspace: Workspace,
    @inject(FS_HOST_FENCE) private readonly fence: HostFence,
  ) {
    super();
  }
  isConcurrencySafe({ path }: AppendInput) {
    return this.workspace.keyOf(path).key !== undefined;
  }
  access({ path }: AppendInput) {
    const { key } = this.workspace.keyOf(path);
    return key === undefined ? [] : [{ key, mode: 'write' as const }];
  }
  async execute({ path, line }: AppendInput, context: ToolContext) {
    const file = this.workspace.resolve(path);
    const write = {
      keys: [file.key],
      token: context.fencingToken,
      what: path,
      signal: context.signal,
      markCommitted: context.markCommitted, // its effect is known once the commit passed
    };
    await this.fence.claim(write); // when it starts: an older holder still running is refused from now on
    await this.fence.commit(write, () => appendFile(file.absolute, `${line}\n`)); // refused if stale
    return `appended to ${path}`;
  }
}

describe('Workspace.keyOf', () => {
  it('gives every spelling of one file the key the fs tools declare', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'a', src: {} }, links: { 'link.ts': 'a.ts' } });
    const expected = `fs:${fx.root}/a.ts`;
    for (const path of ['a.ts', './a.ts', 'src/../a.ts', join(fx.root, 'a.ts'), 'link.ts']) {
      expect(fx.workspace.keyOf(path)).toEqual({ key: expected });
    }
    expect(fx.tool('read_file').access({ path: 'link.ts' } as never)).toEqual([
      { key: expected, mode: 'read' },
    ]);
  });

  it('answers a path it cannot key with undefined and the reason, never a throw', async () => {
    const fx = await fsFixture({ tree: {}, links: { out: '/' } });
    const reasons = {
      '../x': /path escapes the workspace: `path` "\.\.\/x"/,
      '/etc/passwd': /path escapes the workspace/,
      'out/etc': /path escapes the workspace/,
      '': /`path` is empty/,
      'a\0b': /holds a NUL byte/,
    };
    for (const [path, reason] of Object.entries(reasons)) {
      const answer = fx.workspace.keyOf(path);
      expect(answer.key, path).toBeUndefined();
      expect(answer.reason, path).toMatch(reason);
    }
  });

  it('is injectable by its class: fsToolsModule binds the Workspace', async () => {
    const fx = await fsFixture();
    expect(fx.container.get(Workspace)).toBe(fx.workspace);
  });
});

describe('a user-written class tool next to the fs tools', () => {
  const calls = (list: Array<[string, object]>): ToolCall[] =>
    list.map(([name, input], index) => ({ id: `call-${index}`, name, input }));

  async function run(fx: FsFixture, batch: ToolCall[]) {
    bindTools(fx.container, [AppendLine]);
    const registry = ToolRegistry.fromContainer(fx.container);
    const dispatcher = new Dispatcher({ registry, mode: 'parallel', planner: greedyPlanner() });
    const seen: DispatchEvent[] = [];
    const results = await new Promise<readonly { content: string }[]>((resolve, reject) =>
      dispatcher.run(batch).subscribe({
        next: (event) => {
          seen.push(event);
          if (event.type === 'batch-end') resolve(event.results);
        },
        error: reject,
      }),
    );
    const waves = seen.flatMap((event) => (event.type === 'wave-start' ? [[...event.calls]] : []));
    return { results, waves };
  }

  it('orders a read of the same file by another spelling after its write; other files overlap', async () => {
    const fx = await fsFixture({ tree: { 'notes.txt': 'first\n', 'other.txt': 'o' } });
    const batch = calls([
      ['append_line', { path: './notes.txt', line: 'second' }],
      ['read_file', { path: join(fx.root, 'notes.txt') }],
      ['read_file', { path: 'other.txt' }],
    ]);
    const { results, waves } = await run(fx, batch);
    // The read of notes.txt conflicts with the earlier write: a later wave. other.txt does not.
    expect(waves).toEqual([[0, 2], [1]]);
    expect(results[1]?.content).toContain('second');
  });

  it('commits through the host fence: a stale fencing token is refused and nothing is appended', async () => {
    const fx = await fsFixture({ tree: { 'notes.txt': 'first\n' } });
    fx.container.bind(AppendLine).toSelf();
    const append = fx.container.get(AppendLine);
    const base = { toolCallId: 'u1', signal: new AbortController().signal, attempt: 1 };
    await append.execute({ path: 'notes.txt', line: 'newer' }, { ...base, fencingToken: 9 });
    await expect(
      append.execute({ path: 'notes.txt', line: 'stale' }, { ...base, fencingToken: 4 }),
    ).rejects.toMatchObject({ code: 'stale_token' });
    expect(await readFile(join(fx.root, 'notes.txt'), 'utf8')).toBe('first\nnewer\n');
  });

  it('marks the call committed once its append passed the fence (and not when refused)', async () => {
    const fx = await fsFixture({ tree: { 'notes.txt': 'first\n' } });
    fx.container.bind(AppendLine).toSelf();
    const append = fx.container.get(AppendLine);
    const seen: string[] = [];
    const base = {
      toolCallId: 'u1',
      signal: new AbortController().signal,
      attempt: 1,
      markCommitted: () => seen.push('committed'),
    };
    await append.execute({ path: 'notes.txt', line: 'newer' }, { ...base, fencingToken: 9 });
    expect(seen).toEqual(['committed']);
    await expect(
      append.execute({ path: 'notes.txt', line: 'stale' }, { ...base, fencingToken: 4 }),
    ).rejects.toMatchObject({ code: 'stale_token' });
    expect(seen).toEqual(['committed']);
  });

  it('declares a call on an escaping path not concurrency-safe', async () => {
    const fx = await fsFixture({ tree: {} });
    fx.container.bind(AppendLine).toSelf();
    const registry = new ToolRegistry().add(fx.container.get(AppendLine));
    const nodes = registry.toPlanNodes(calls([['append_line', { path: '../x', line: 'l' }]]));
    expect(nodes).toEqual([{ index: 0, parallelizable: false }]);
  });
});
