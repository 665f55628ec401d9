import { declareTool, fnTool } from '@toolwaves/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mayRerun } from '../src/index.js';

const path = z.object({ path: z.string() });

describe('mayRerun: what may run again after a crash cut it off', () => {
  it('re-runs a tool declared idempotent, whatever else it declares', () => {
    expect(mayRerun(declareTool({ name: 'upsert', idempotent: true }), {})).toBe(true);
  });

  it('re-runs a concurrency-safe call whose every declared access is a read', () => {
    const read = declareTool({
      name: 'read_file',
      input: path,
      concurrencySafe: true,
      access: ({ path }) => [
        { key: `fs:/${path}`, mode: 'read' },
        { key: 'fs:/index', mode: 'read' },
      ],
    });
    expect(mayRerun(read, { path: 'a' })).toBe(true);
  });

  it('does not re-run a call that writes, declares a resource key, declares nothing, or is not concurrency-safe', () => {
    const write = declareTool({
      name: 'edit',
      concurrencySafe: true,
      access: [
        { key: 'fs:/a', mode: 'read' },
        { key: 'fs:/b', mode: 'write' },
      ],
    });
    const keyed = declareTool({ name: 'lock', concurrencySafe: true, resourceKey: 'db' });
    const keyless = declareTool({ name: 'post', concurrencySafe: true });
    const unsafeReader = declareTool({ name: 'peek', access: [{ key: 'fs:/a', mode: 'read' }] });
    for (const tool of [write, keyed, keyless, unsafeReader])
      expect(mayRerun(tool, {})).toBe(false);
  });

  it('fails closed for an unknown tool and for a declaration that throws', () => {
    const throwing = fnTool({
      name: 'odd',
      description: 'odd',
      concurrencySafe: true,
      access: () => {
        throw new Error('no');
      },
      execute: () => '',
    });
    expect(mayRerun(undefined, {})).toBe(false);
    expect(mayRerun(throwing, {})).toBe(false);
  });
});
