import { describe, expect, it } from 'vitest';
import { fnTool } from '../src/index.js';
import { fleetClaimOf, readDeclarations } from '../src/internal/index.js';

describe('readDeclarations and fleetClaimOf', () => {
  let keysAsked = 0;
  const tool = fnTool<{ safe: boolean }>({
    name: 't',
    description: 't',
    concurrencySafe: (input) => input.safe,
    resourceKey: () => {
      keysAsked += 1;
      return 'k';
    },
    access: [{ key: 'db:/a', mode: 'read' }],
    execute: () => '',
  });

  it('reads the key and accesses of a safe call; the claim holds them as declared', () => {
    const read = readDeclarations(tool, { safe: true });
    expect(read).toMatchObject({ safe: true, unreadable: false, reason: undefined });
    expect(read.accesses).toEqual([
      { key: 'k', mode: 'write' },
      { key: 'db:/a', mode: 'read' },
    ]);
    expect(fleetClaimOf(read)).toEqual({ access: read.accesses, exclusive: false });
  });

  it('an unsafe call: its key is not asked for unless wanted; it holds the namespace unless given up', () => {
    keysAsked = 0;
    const read = readDeclarations(tool, { safe: false });
    expect(keysAsked).toBe(0);
    expect(read).toMatchObject({ safe: false, accesses: [], reason: 'not_declared_safe' });
    expect(fleetClaimOf(read)).toEqual({ access: [], exclusive: true });
    const whole = readDeclarations(tool, { safe: false }, { accessesWhenUnsafe: true });
    expect(keysAsked).toBe(1);
    expect(fleetClaimOf(whole, { exclusiveForUnsafe: false })).toEqual({
      access: [
        { key: 'k', mode: 'write' },
        { key: 'db:/a', mode: 'write' },
      ],
      exclusive: false,
    });
  });

  it('an unknown tool, a throwing or malformed declaration: unreadable, the namespace always', () => {
    const throwing = fnTool({
      name: 'x',
      description: 'x',
      concurrencySafe: true,
      access: () => {
        throw new Error('no');
      },
      execute: () => '',
    });
    const malformed = fnTool({
      name: 'y',
      description: 'y',
      concurrencySafe: true,
      resourceKey: () => 7 as unknown as string,
      execute: () => '',
    });
    for (const [read, reason] of [
      [readDeclarations(undefined, {}), 'unknown_tool'],
      [readDeclarations(throwing, {}), 'declaration_threw'],
      [readDeclarations(malformed, {}), 'malformed_declaration'],
    ] as const) {
      expect(read).toMatchObject({ safe: false, unreadable: true, reason });
      expect(fleetClaimOf(read, { exclusiveForUnsafe: false })).toEqual({
        access: [],
        exclusive: true,
      });
    }
  });
});
