import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ToolCall, ToolRegistry } from '@toolwaves/core';
import { type DispatchEvent, Dispatcher } from '@toolwaves/executor-rx';
import { greedyPlanner, verifyPlan } from '@toolwaves/planner';
import { describe, expect, it } from 'vitest';
import { type FsFixture, fsFixture } from './fixture.js';

function parallel(fx: FsFixture): Dispatcher {
  const registry = ToolRegistry.fromContainer(fx.container);
  return new Dispatcher({
    registry,
    mode: 'parallel',
    maxConcurrency: 8,
    planner: greedyPlanner(),
  });
}

const calls = (list: Array<[string, object]>): ToolCall[] =>
  list.map(([name, input], index) => ({ id: `call-${index}`, name, input }));

/** Every event of a run, in order. */
function events(dispatcher: Dispatcher, batch: readonly ToolCall[]): Promise<DispatchEvent[]> {
  return new Promise((resolve, reject) => {
    const seen: DispatchEvent[] = [];
    dispatcher.run(batch).subscribe({
      next: (event) => seen.push(event),
      error: reject,
      complete: () => resolve(seen),
    });
  });
}

const waves = (seen: readonly DispatchEvent[]): number[][] =>
  seen.flatMap((event) => (event.type === 'wave-start' ? [[...event.calls]] : []));

const results = (seen: readonly DispatchEvent[]) => {
  const end = seen.find((event) => event.type === 'batch-end');
  if (end?.type !== 'batch-end') throw new Error('no batch-end');
  return end.results;
};

describe('the fs tools through the Dispatcher, in parallel mode', () => {
  it('lands both edits of one file in one batch, one wave after the other', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'const a = 1;\nconst b = 1;\n' } });
    const seen = await events(
      parallel(fx),
      calls([
        ['edit_file', { path: 'a.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' }],
        ['edit_file', { path: './a.ts', old_string: 'const b = 1;', new_string: 'const b = 2;' }],
      ]),
    );
    expect(waves(seen)).toEqual([[0], [1]]);
    expect(results(seen).map((r) => [r.toolCallId, r.content, r.isError])).toEqual([
      ['call-0', 'edited a.ts: replaced 1 occurrence', false],
      ['call-1', 'edited a.ts: replaced 1 occurrence', false],
    ]);
    expect(await readFile(join(fx.root, 'a.ts'), 'utf8')).toBe('const a = 2;\nconst b = 2;\n');
  });

  it('lets a read after a write of the same file in one batch see the write', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'old' }, module: { cachedReads: true } });
    const dispatcher = parallel(fx);
    await dispatcher.dispatch(calls([['read_file', { path: 'a.ts' }]])); // cache the old content
    const seen = await events(
      dispatcher,
      calls([
        ['write_file', { path: 'a.ts', content: 'new' }],
        ['read_file', { path: 'a.ts' }],
      ]),
    );
    expect(waves(seen)).toEqual([[0], [1]]);
    expect(results(seen)[1]).toMatchObject({
      toolCallId: 'call-1',
      content: '     1\tnew',
      isError: false,
    });
  });

  it('runs reads of different files in one wave, all started before any ends', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'a', 'b.ts': 'b', src: { 'c.ts': 'c' } } });
    const seen = await events(
      parallel(fx),
      calls([
        ['read_file', { path: 'a.ts' }],
        ['read_file', { path: 'b.ts' }],
        ['read_file', { path: 'src/c.ts' }],
        ['stat', { path: 'a.ts' }],
        ['grep', { pattern: 'c', path: 'src' }],
      ]),
    );
    expect(waves(seen)).toEqual([[0, 1, 2, 3, 4]]);
    const kinds = seen
      .filter((e) => e.type === 'call-start' || e.type === 'call-end')
      .map((e) => e.type);
    expect(kinds.slice(0, 5)).toEqual(Array(5).fill('call-start'));
    expect(results(seen).map((r) => r.content.split('\n')[0])).toEqual([
      '     1\ta',
      '     1\tb',
      '     1\tc',
      'path: a.ts',
      'src/c.ts:1:c',
    ]);
  });

  it('makes a list_dir after a write below its folder wait, and see the new file', async () => {
    const fx = await fsFixture({ tree: { src: { 'a.ts': 'a' } } });
    const seen = await events(
      parallel(fx),
      calls([
        ['list_dir', { path: '.' }],
        ['write_file', { path: 'src/lib/new.ts', content: 'x' }],
        ['list_dir', { path: 'src' }],
        ['glob', { pattern: '**/*.ts' }],
        ['read_file', { path: 'src/a.ts' }],
      ]),
    );
    // the write waits for the listing of the root above it; the later listing and glob wait for
    // the write; the read of another file under src joins the first wave
    expect(waves(seen)).toEqual([[0, 4], [1], [2, 3]]);
    const answers = results(seen).map((r) => r.content);
    expect(answers[0]).toBe('src/');
    expect(answers[2]).toBe('a.ts (1 byte)\nlib/');
    expect(answers[3]).toBe('src/a.ts\nsrc/lib/new.ts');
  });

  it('moves a file while reads of others go on, and orders the calls on both of its paths', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'a', 'b.ts': 'b', 'c.ts': 'c' } });
    const seen = await events(
      parallel(fx),
      calls([
        ['read_file', { path: 'a.ts' }],
        ['move_file', { from: 'a.ts', to: 'd.ts' }],
        ['read_file', { path: 'c.ts' }],
        ['read_file', { path: 'd.ts' }],
      ]),
    );
    expect(waves(seen)).toEqual([[0, 2], [1], [3]]);
    expect(results(seen).map((r) => r.content)).toEqual([
      '     1\ta',
      'moved a.ts to d.ts',
      '     1\tc',
      '     1\ta',
    ]);
  });

  it('runs a call whose path escapes alone, and answers it with a soft error', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'a', 'b.ts': 'b' } });
    const batch = calls([
      ['read_file', { path: 'a.ts' }],
      ['read_file', { path: '../../etc/passwd' }],
      ['read_file', { path: 'b.ts' }],
    ]);
    const registry = ToolRegistry.fromContainer(fx.container);
    const nodes = registry.toPlanNodes(batch);
    const plan = greedyPlanner().plan(nodes);
    expect(verifyPlan(nodes, plan)).toEqual([]);
    const seen = await events(parallel(fx), batch);
    expect(waves(seen)).toEqual([[0, 2], [1]]);
    expect(results(seen)[1]).toMatchObject({
      toolCallId: 'call-1',
      isError: true,
      content: `path escapes the workspace: \`path\` "../../etc/passwd" resolves outside ${fx.root}`,
    });
  });

  it('answers a cache hit under the id of the call that asked', async () => {
    const fx = await fsFixture({ tree: { 'a.ts': 'a' }, module: { cachedReads: true } });
    const dispatcher = parallel(fx);
    const first = await dispatcher.dispatch([
      { id: 'first', name: 'read_file', input: { path: 'a.ts' } },
      { id: 'other', name: 'stat', input: { path: '.' } },
    ]);
    const second = await dispatcher.dispatch([
      { id: 'second', name: 'read_file', input: { path: './a.ts' } },
      { id: 'other-2', name: 'stat', input: { path: '.' } },
    ]);
    expect(fx.cache.stats).toMatchObject({ hits: 1, misses: 1 });
    expect(first[0]).toMatchObject({
      toolCallId: 'first',
      toolName: 'read_file',
      content: '     1\ta',
    });
    expect(second[0]).toMatchObject({
      toolCallId: 'second',
      toolName: 'read_file',
      content: '     1\ta',
    });
    expect(second[0]?.content).not.toContain('first');
  });
});

describe('the README example', () => {
  it('plans and answers as the README says', async () => {
    const fx = await fsFixture({
      tree: { src: { 'a.ts': 'export const a = 1;\n', 'b.ts': 'b' } },
      module: { cachedReads: true },
    });
    const seen = await events(parallel(fx), [
      { id: 'c1', name: 'read_file', input: { path: 'src/a.ts' } },
      { id: 'c2', name: 'read_file', input: { path: 'src/b.ts' } },
      {
        id: 'c3',
        name: 'edit_file',
        input: { path: 'src/a.ts', old_string: 'a = 1', new_string: 'a = 2' },
      },
      { id: 'c4', name: 'read_file', input: { path: './src/a.ts' } },
      { id: 'c5', name: 'list_dir', input: { path: 'src' } },
    ]);
    expect(waves(seen)).toEqual([[0, 1], [2], [3, 4]]);
    expect(results(seen).map((r) => [r.toolCallId, r.content])).toEqual([
      ['c1', '     1\texport const a = 1;'],
      ['c2', '     1\tb'],
      ['c3', 'edited src/a.ts: replaced 1 occurrence'],
      ['c4', '     1\texport const a = 2;'],
      ['c5', 'a.ts (20 bytes)\nb.ts (1 byte)'],
    ]);
    expect(fx.cache.stats).toEqual({ hits: 0, misses: 3, entries: 2 });
  });
});
