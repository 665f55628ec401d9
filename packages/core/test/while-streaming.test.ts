import { describe, expect, it } from 'vitest';
import { fnTool, type Tool } from '../src/index.js';
import {
  mayStartWhileStreaming,
  readDeclarations,
  unreadableDeclarations,
  WHILE_STREAMING,
} from '../src/internal/index.js';

/** A tool with these declarations and nothing else. */
const declaring = (declare: Partial<Tool<unknown>>): Tool =>
  ({ name: 't', description: 't', execute: () => '', ...declare }) as Tool;

const may = (tool: Tool | undefined, input: unknown = {}) =>
  mayStartWhileStreaming(readDeclarations(tool, input));

describe('mayStartWhileStreaming: only a known concurrency-safe read', () => {
  it('lets a safe call that declares nothing, or only reads, start', () => {
    expect(may(declaring({ isConcurrencySafe: () => true }))).toBe(true);
    const reader = fnTool({
      name: 'read_file',
      description: 'reads',
      concurrencySafe: true,
      access: [
        { key: 'fs:/a', mode: 'read' },
        { key: 'fs:/b', mode: 'read' },
      ],
      execute: () => '',
    });
    expect(may(reader)).toBe(true);
  });

  it('holds back any write, a plain resourceKey, an unsafe call and anything unreadable', () => {
    const cases: [string, Tool | undefined][] = [
      ['no declaration at all (not safe by default)', declaring({})],
      ['declared unsafe', declaring({ isConcurrencySafe: () => false })],
      [
        'a write among reads',
        declaring({
          isConcurrencySafe: () => true,
          access: () => [
            { key: 'fs:/a', mode: 'read' },
            { key: 'fs:/b', mode: 'write' },
          ],
        }),
      ],
      [
        'a resourceKey (a write)',
        declaring({ isConcurrencySafe: () => true, resourceKey: () => 'k' }),
      ],
      [
        'a predicate that throws',
        declaring({
          isConcurrencySafe: () => {
            throw new Error('?');
          },
        }),
      ],
      [
        'a malformed access list',
        declaring({
          isConcurrencySafe: () => true,
          access: () => [{ key: 'a', mode: 'rw' }] as never,
        }),
      ],
      ['an unknown tool', undefined],
    ];
    for (const [what, tool] of cases) expect([what, may(tool)]).toEqual([what, false]);
    expect(mayStartWhileStreaming(unreadableDeclarations('invalid_input'))).toBe(false);
  });

  it("names the values of the option: 'all' or 'read-only'", () => {
    expect(WHILE_STREAMING.expected).toBe("'all' or 'read-only'");
    expect(['all', 'read-only', 'reads', true, undefined].map(WHILE_STREAMING.test)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
