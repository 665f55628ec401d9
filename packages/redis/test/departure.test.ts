import { describe, expect, it } from 'vitest';
import { departureConcerns, parseDeparture } from '../src/departure.js';

const waiter = (
  access: [string, 'read' | 'write'][],
  toolName = 'edit_file',
  limit = 0,
  options: { exclusive?: boolean; group?: string } = {},
) => ({
  access: access.map(([key, mode]) => ({ key, mode })),
  toolName,
  limit,
  exclusive: options.exclusive ?? false,
  group: options.group ?? 'g:mine',
});

describe('release-channel messages', () => {
  it('reads accesses, the tool and the group; hand-offs; group wake-ups; `*` (or anything unreadable) as any departure', () => {
    expect(parseDeparture('[["w","fs:/a"],["r","fs:/b"]]\nedit_file\ng:1')).toEqual({
      access: [
        { key: 'fs:/a', mode: 'write' },
        { key: 'fs:/b', mode: 'read' },
      ],
      toolName: 'edit_file',
      group: 'g:1',
    });
    expect(parseDeparture('+a1b2 1796113719551191')).toEqual({
      handedTo: 'a1b2',
      token: 1796113719551191,
    });
    expect(parseDeparture('~g:1')).toEqual({ wakeGroup: 'g:1' });
    expect(parseDeparture('*')).toBe('any');
    expect(parseDeparture('not json\nx\ng')).toBe('any');
    expect(parseDeparture('+nospace')).toBe('any');
  });

  it.each([
    ['[["w","fs:/repo/a"]]\nx\ng:o', waiter([['fs:/repo', 'read']]), true],
    ['[["r","fs:/repo"]]\nx\ng:o', waiter([['fs:/repo/a/b', 'write']]), true],
    ['[["r","fs:/repo"]]\nx\ng:o', waiter([['fs:/repo/a', 'read']]), false],
    ['[["w","fs:/repo/a"]]\nx\ng:o', waiter([['fs:/repo/ab', 'write']]), false],
    ['[]\ncharge\ng:o', waiter([], 'charge', 2), true],
    ['[]\ncharge\ng:o', waiter([], 'charge', 0), false],
    ['[]\nrefund\ng:o', waiter([], 'charge', 2), false],
    ['*', waiter([['fs:/z', 'read']]), true],
    // its own group was handed the grant by the releasing script, in order: no retry
    ['[["w","fs:/a"]]\nedit_file\ng:mine', waiter([['fs:/a', 'write']]), false],
    ['~g:mine', waiter([['fs:/a', 'read']]), true],
    ['~g:other', waiter([['fs:/a', 'read']]), false],
    // an exclusive waiter waits for everything
    ['[["r","fs:/x"]]\nx\ng:o', waiter([], 'tool', 0, { exclusive: true }), true],
    ['+someone 5', waiter([['fs:/a', 'write']]), false],
  ])('%j concerns %j: %s', (message, waiting, expected) => {
    expect(departureConcerns(parseDeparture(message), waiting)).toBe(expected);
  });
});
