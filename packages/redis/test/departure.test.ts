import { describe, expect, it } from 'vitest';
import { departureConcerns, parseDeparture } from '../src/departure.js';

const waiter = (access: [string, 'read' | 'write'][], toolName = 'edit_file', limit = 0) => ({
  access: access.map(([key, mode]) => ({ key, mode })),
  toolName,
  limit,
});

describe('release-channel messages', () => {
  it('reads accesses and the tool, and `*` (or anything unreadable) as any departure', () => {
    expect(parseDeparture('[["w","fs:/a"],["r","fs:/b"]]\nedit_file')).toEqual({
      access: [
        { key: 'fs:/a', mode: 'write' },
        { key: 'fs:/b', mode: 'read' },
      ],
      toolName: 'edit_file',
    });
    expect(parseDeparture('*')).toBe('any');
    expect(parseDeparture('not json\nx')).toBe('any');
  });

  it.each([
    ['[["w","fs:/repo/a"]]\nx', waiter([['fs:/repo', 'read']]), true],
    ['[["r","fs:/repo"]]\nx', waiter([['fs:/repo/a/b', 'write']]), true],
    ['[["r","fs:/repo"]]\nx', waiter([['fs:/repo/a', 'read']]), false],
    ['[["w","fs:/repo/a"]]\nx', waiter([['fs:/repo/ab', 'write']]), false],
    ['[]\ncharge', waiter([], 'charge', 2), true],
    ['[]\ncharge', waiter([], 'charge', 0), false],
    ['[]\nrefund', waiter([], 'charge', 2), false],
    ['*', waiter([['fs:/z', 'read']]), true],
  ])('%j concerns %j: %s', (message, waiting, expected) => {
    expect(departureConcerns(parseDeparture(message), waiting)).toBe(expected);
  });
});
