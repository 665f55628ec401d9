import { describe, expect, it } from 'vitest';
import { fnTool, ToolRegistry, ToolwavesError } from '../src/index.js';

const signal = new AbortController().signal;

describe('fnTool', () => {
  it('takes static declarations', () => {
    const t = fnTool({
      name: 'stat',
      description: 'stat',
      concurrencySafe: true,
      resourceKey: 'fs:/x',
      execute: () => 'ok',
    });
    expect(t.isConcurrencySafe?.({})).toBe(true);
    expect(t.resourceKey?.({})).toBe('fs:/x');
    expect(t.access).toBeUndefined();
  });

  it('takes per-input declarations', () => {
    const t = fnTool<{ path: string; write: boolean }>({
      name: 'touch',
      description: 'touch',
      concurrencySafe: (input) => !input.path.startsWith('/'),
      access: (input) => [{ key: `fs:${input.path}`, mode: input.write ? 'write' : 'read' }],
      execute: (input) => input.path,
    });
    expect(t.isConcurrencySafe?.({ path: 'a', write: false })).toBe(true);
    expect(t.isConcurrencySafe?.({ path: '/a', write: false })).toBe(false);
    expect(t.access?.({ path: 'a', write: true })).toEqual([{ key: 'fs:a', mode: 'write' }]);
  });

  it('defaults to not concurrency-safe', () => {
    const t = fnTool({ name: 'x', description: 'x', execute: () => 'x' });
    expect(t.isConcurrencySafe?.(undefined)).toBe(false);
  });

  it('runs execute with the context', async () => {
    const t = fnTool({
      name: 'echo',
      description: 'echo',
      execute: (input: unknown, context) => `${String(input)}#${context.attempt}`,
    });
    await expect(
      Promise.resolve(t.execute('hi', { toolCallId: 'c', signal, attempt: 2 })),
    ).resolves.toBe('hi#2');
  });

  it('refuses an empty name and a missing execute, naming the field', () => {
    expect(() => fnTool({ name: '', description: 'x', execute: () => '' })).toThrow(
      'Expected `name` of fnTool to be a non-empty string, got `""` (string)',
    );
    expect(() =>
      fnTool({ name: 'y', description: 'x', execute: undefined as unknown as () => string }),
    ).toThrow('Expected `execute` of fnTool `y` to be a function, got `undefined` (undefined)');
  });
});

describe('ToolRegistry with function tools', () => {
  it('starts empty, adds, gets, and lists names sorted', () => {
    const registry = new ToolRegistry();
    expect(registry.names()).toEqual([]);
    registry
      .add(fnTool({ name: 'zeta', description: 'z', execute: () => '' }))
      .add(fnTool({ name: 'alpha', description: 'a', execute: () => '' }));
    expect(registry.names()).toEqual(['alpha', 'zeta']);
    expect(registry.get('alpha')?.name).toBe('alpha');
    expect(registry.get('missing')).toBeUndefined();
  });

  it('refuses a second tool with the same name, naming it', () => {
    const registry = new ToolRegistry().add(
      fnTool({ name: 'dup', description: 'a', execute: () => '' }),
    );
    try {
      registry.add(fnTool({ name: 'dup', description: 'b', execute: () => '' }));
      expect.unreachable('a duplicate name must throw');
    } catch (error) {
      expect(error).toBeInstanceOf(ToolwavesError);
      expect((error as ToolwavesError).code).toBe('duplicate_tool');
      expect((error as ToolwavesError).name).toBe('ToolwavesError');
      expect((error as Error).message).toContain('`dup`');
    }
  });

  it('refuses something that is not a tool', () => {
    expect(() => new ToolRegistry().add({ name: 'x' } as never)).toThrow(
      'Tool `x` has no `execute` function',
    );
    expect(() => new ToolRegistry().add({ execute: () => '' } as never)).toThrow(/has no `name`/);
  });
});
