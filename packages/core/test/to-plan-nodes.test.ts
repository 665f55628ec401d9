import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fnTool, ToolRegistry } from '../src/index.js';

const boom = () => {
  throw new Error('boom');
};

function registry(): ToolRegistry {
  return new ToolRegistry()
    .add(
      fnTool<{ path: string }>({
        name: 'read',
        description: 'read',
        input: z.object({ path: z.string() }),
        concurrencySafe: true,
        access: ({ path }) => [{ key: `fs:/${path}`, mode: 'read' }],
        execute: () => '',
      }),
    )
    .add(
      fnTool({
        name: 'keyed',
        description: 'k',
        concurrencySafe: true,
        resourceKey: 'db',
        execute: () => '',
      }),
    )
    .add(fnTool({ name: 'keyless', description: 'k', concurrencySafe: true, execute: () => '' }))
    .add(fnTool({ name: 'unsafe', description: 'u', resourceKey: boom, execute: () => '' }))
    .add(
      fnTool({
        name: 'throwing-safety',
        description: 't',
        concurrencySafe: boom,
        execute: () => '',
      }),
    )
    .add(
      fnTool({
        name: 'throwing-key',
        description: 't',
        concurrencySafe: true,
        resourceKey: boom,
        execute: () => '',
      }),
    )
    .add(
      fnTool({
        name: 'throwing-access',
        description: 't',
        concurrencySafe: true,
        access: boom,
        execute: () => '',
      }),
    )
    .add(
      fnTool({
        name: 'bad-access',
        description: 't',
        concurrencySafe: true,
        access: () => [{ key: 'x', mode: 'exclusive' as never }],
        execute: () => '',
      }),
    );
}

describe('ToolRegistry.toPlanNodes', () => {
  it('describes safe calls with their key or access list, in order', () => {
    expect(
      registry().toPlanNodes([
        { id: '1', name: 'read', input: { path: 'a' } },
        { id: '2', name: 'keyed', input: {} },
        { id: '3', name: 'keyless', input: {} },
      ]),
    ).toEqual([
      { index: 0, parallelizable: true, access: [{ key: 'fs:/a', mode: 'read' }] },
      { index: 1, parallelizable: true, resourceKey: 'db' },
      { index: 2, parallelizable: true },
    ]);
  });

  it.each([
    ['an unknown tool', { name: 'nope', input: {} }],
    ['a tool that is not safe (its key is never asked)', { name: 'unsafe', input: {} }],
    ['a throwing safety predicate', { name: 'throwing-safety', input: {} }],
    ['a throwing key function', { name: 'throwing-key', input: {} }],
    ['a throwing access function', { name: 'throwing-access', input: {} }],
    ['a malformed access list', { name: 'bad-access', input: {} }],
    ['a missing field', { name: 'read', input: {} }],
    ['a field of the wrong type', { name: 'read', input: { path: 42 } }],
    ['extra nesting', { name: 'read', input: { input: { path: 'a' } } }],
  ])('makes %s not concurrency-safe', (_what, call) => {
    expect(registry().toPlanNodes([{ id: 'x', ...call }])).toEqual([
      { index: 0, parallelizable: false },
    ]);
  });

  it('copies estimates from the caller', () => {
    const nodes = registry().toPlanNodes(
      [
        { id: '1', name: 'keyless', input: {} },
        { id: '2', name: 'nope', input: {} },
      ],
      { estimateMs: (call) => (call.name === 'keyless' ? 120 : undefined) },
    );
    expect(nodes).toEqual([
      { index: 0, parallelizable: true, estimateMs: 120 },
      { index: 1, parallelizable: false },
    ]);
  });

  it('asks the key only when the call is safe', () => {
    let asked = 0;
    const reg = new ToolRegistry().add(
      fnTool<{ safe: boolean }>({
        name: 't',
        description: 't',
        concurrencySafe: (input) => input.safe,
        resourceKey: () => {
          asked += 1;
          return 'k';
        },
        execute: () => '',
      }),
    );
    reg.toPlanNodes([{ id: '1', name: 't', input: { safe: false } }]);
    expect(asked).toBe(0);
    reg.toPlanNodes([{ id: '2', name: 't', input: { safe: true } }]);
    expect(asked).toBe(1);
  });
});
