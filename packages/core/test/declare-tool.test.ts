import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { declareTool, ToolRegistry, ToolwavesError } from '../src/index.js';

const context = { toolCallId: 'c1', signal: new AbortController().signal, attempt: 1 };

describe('declareTool', () => {
  it('plans a call by its declarations alone', () => {
    const registry = new ToolRegistry().add(
      declareTool({
        name: 'edit_file',
        input: z.object({ path: z.string() }),
        concurrencySafe: true,
        access: ({ path }) => [{ key: `fs:/${path}`, mode: 'write' }],
      }),
    );
    const [node] = registry.toPlanNodes([{ id: 'c1', name: 'edit_file', input: { path: 'a' } }]);
    expect(node).toMatchObject({
      index: 0,
      parallelizable: true,
      access: [{ key: 'fs:/a', mode: 'write' }],
    });
  });

  it('is not concurrency-safe unless it says so, and describes itself by its name', () => {
    const declared = declareTool({ name: 'deploy' });
    expect(declared.description).toBe('deploy');
    expect(declared.isConcurrencySafe?.({})).toBe(false);
  });

  it('answers a soft error naming the tool when run without the framework’s implementation', async () => {
    const output = await declareTool({ name: 'search' }).execute({}, context);
    expect(output).toMatchObject({ isError: true });
    expect(typeof output === 'string' ? output : output.content).toContain('`search`');
  });

  it('passes `idempotent` through, absent when not declared, and refuses a non-boolean', () => {
    expect(declareTool({ name: 'charge', idempotent: true }).idempotent).toBe(true);
    expect('idempotent' in declareTool({ name: 'charge' })).toBe(false);
    expect(() => declareTool({ name: 'charge', idempotent: 'yes' as unknown as boolean })).toThrow(
      /`idempotent` of fnTool `charge`/,
    );
  });

  it('refuses a missing name like fnTool does', () => {
    expect(() => declareTool({ name: '' })).toThrow(ToolwavesError);
  });
});
