import { ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addMcpTools, mcpTools } from '../src/index.js';
import { connect, fsServer, type Handled, track } from './fixtures.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const byName = async (options: Omit<Parameters<typeof mcpTools>[0], 'client' | 'server'>) => {
  const tools = await mcpTools({ client: await connect(fsServer([])), server: 'fs', ...options });
  return Object.fromEntries(tools.map((tool) => [tool.name, tool]));
};

describe('the trust policy', () => {
  it("'annotations' honours readOnlyHint and idempotentHint; overrides win over them", async () => {
    const tools = await byName({
      trust: 'annotations',
      overrides: { write_file: { idempotent: true }, read_file: { readOnly: false } },
    });
    expect(tools.read_file).toMatchObject({ readOnly: false, idempotent: false });
    expect(tools.shout).toMatchObject({ readOnly: true, idempotent: true });
    expect(tools.write_file).toMatchObject({ readOnly: false, idempotent: true });
    expect(tools.list_dir).toMatchObject({ readOnly: false, idempotent: false });
    expect(tools.list_dir?.isConcurrencySafe?.({})).toBe(true);
  });

  it("'none' (the default) runs every tool alone unless the override declares how it overlaps", async () => {
    const tools = await byName({
      overrides: {
        read_file: { readOnly: true },
        list_dir: { description: 'only a description: not a declaration' },
        write_file: { concurrencySafe: (input) => input.path !== 'lock' },
      },
    });
    expect(tools.read_file?.isConcurrencySafe?.({})).toBe(true);
    expect(tools.read_file?.access?.({})).toEqual([{ key: 'mcp:fs', mode: 'read' }]);
    expect(tools.list_dir?.isConcurrencySafe?.({})).toBe(false);
    expect(tools.shout?.isConcurrencySafe?.({})).toBe(false); // annotated read-only: not believed
    expect(tools.write_file?.isConcurrencySafe?.({ path: 'a' })).toBe(true);
    expect(tools.write_file?.isConcurrencySafe?.({ path: 'lock' })).toBe(false);
    expect(tools.write_file?.access?.({})).toEqual([{ key: 'mcp:fs', mode: 'write' }]);
  });
});

describe('the per-server limit', () => {
  it('counts every call against `mcp:<server>` when the Dispatcher has that limit', async () => {
    const reads = Array.from({ length: 5 }, (_, i) => ({
      id: `r${i}`,
      name: 'read_file',
      input: { path: `f${i}` },
    }));
    const runWith = async (limits: Record<string, number> | undefined): Promise<Handled[]> => {
      const log: Handled[] = [];
      const registry = new ToolRegistry();
      await addMcpTools({
        registry,
        client: await connect(fsServer(log)),
        server: 'fs',
        trust: 'annotations',
      });
      const dispatcher = new Dispatcher({
        registry,
        mode: 'parallel',
        ...(limits === undefined ? {} : { limits }),
      });
      const done = track(dispatcher.dispatch(reads));
      await vi.advanceTimersByTimeAsync(1_000);
      expect(done.status).toBe('resolved');
      return log;
    };
    const start = Date.now();
    const free = await runWith(undefined);
    expect(free.map((e) => e.startedAt - start)).toEqual([0, 0, 0, 0, 0]);
    const begin = Date.now();
    const capped = await runWith({ 'mcp:fs': 2 });
    expect(capped.map((e) => e.startedAt - begin)).toEqual([0, 0, 100, 100, 200]);
    // A limit of another server leaves these calls alone.
    const origin = Date.now();
    const other = await runWith({ 'mcp:web': 1 });
    expect(other.map((e) => e.startedAt - origin)).toEqual([0, 0, 0, 0, 0]);
  });
});
