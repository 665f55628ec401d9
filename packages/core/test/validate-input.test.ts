import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fnTool } from '../src/index.js';
import { validateInput } from '../src/internal/index.js';

const edit = fnTool({
  name: 'edit_file',
  description: 'edit',
  input: z.object({
    path: z.string(),
    change: z.object({ old: z.string(), replacement: z.string() }),
    count: z.number().int().optional(),
  }),
  execute: () => '',
});

describe('validateInput', () => {
  it('passes valid input through, parsed', () => {
    const input = { path: 'a', change: { old: 'x', replacement: 'y' } };
    expect(validateInput(edit, input)).toEqual({ ok: true, value: input });
  });

  it('names a missing field', () => {
    const result = validateInput(edit, { change: { old: 'x', replacement: 'y' } });
    expect(result).toEqual({
      ok: false,
      message: 'Invalid input for tool `edit_file`: `path`: expected string, received undefined',
    });
  });

  it('names a field of the wrong type', () => {
    const result = validateInput(edit, { path: 7, change: { old: 'x', replacement: 'y' } });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toBe(
      'Invalid input for tool `edit_file`: `path`: expected string, received number',
    );
  });

  it('names nested fields with their full path', () => {
    const result = validateInput(edit, { path: 'a', change: { old: 'x' } });
    expect(!result.ok && result.message).toContain(
      '`change.replacement`: expected string, received undefined',
    );
  });

  it('reports input wrapped in an extra level, naming each missing field', () => {
    const result = validateInput(edit, {
      input: { path: 'a', change: { old: 'x', replacement: 'y' } },
    });
    expect(!result.ok && result.message).toContain('`path`: expected string');
    expect(!result.ok && result.message).toContain('`change`: expected object');
  });

  it('reports a non-object input as the whole input', () => {
    const result = validateInput(edit, 'a string');
    expect(!result.ok && result.message).toBe(
      'Invalid input for tool `edit_file`: `(input)`: expected object, received string',
    );
  });

  it('accepts anything when the tool has no schema', () => {
    const bare = fnTool({ name: 'bare', description: 'b', execute: () => '' });
    expect(validateInput(bare, 123)).toEqual({ ok: true, value: 123 });
  });
});
