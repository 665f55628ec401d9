/**
 * The schema given to `@tool` types the class's methods. The `@ts-expect-error` lines are
 * checked by `tsc` (this folder is in the package's tsconfig, which `pnpm typecheck` runs): if
 * one of those classes compiled, the directive would be unused and the typecheck would fail.
 */
import 'reflect-metadata';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { type Tool, ToolClass, type ToolContext, ToolRegistry, tool } from '../src/index.js';

const noteInput = z.object({ path: z.string(), size: z.number().optional() });
type NoteInput = z.infer<typeof noteInput>;
const context: ToolContext = { toolCallId: 'c', signal: new AbortController().signal, attempt: 1 };

@tool({ name: 'note', description: 'Writes a note', input: noteInput })
class Note extends ToolClass {
  isConcurrencySafe(input: NoteInput): boolean {
    return input.path !== '';
  }
  resourceKey(input: NoteInput): string {
    return `note:${input.path}`;
  }
  access(input: NoteInput) {
    return [{ key: `note:${input.path}`, mode: 'write' as const }];
  }
  execute(input: NoteInput): string {
    return `${input.path}:${input.size ?? 0}`;
  }
}

describe('@tool types a class by its schema', () => {
  it('accepts methods that take what the schema gives, and the instance is a Tool', async () => {
    const note = new Note();
    const asTool: Tool = note;
    expectTypeOf(note.name).toEqualTypeOf<string>();
    expectTypeOf(note.execute).parameter(0).toEqualTypeOf<NoteInput>();
    const registry = new ToolRegistry().add(asTool);
    expect(registry.get('note')).toBe(note);
    expect(registry.toPlanNodes([{ id: 'a', name: 'note', input: { path: 'x' } }])).toEqual([
      {
        index: 0,
        parallelizable: true,
        resourceKey: 'note:x',
        access: [{ key: 'note:x', mode: 'write' }],
      },
    ]);
    await expect(Promise.resolve(note.execute({ path: 'x', size: 2 }))).resolves.toBe('x:2');
  });

  it('accepts a method that takes less than the schema gives (a wider type)', () => {
    @tool({ name: 'loose', description: 'x', input: noteInput })
    class Loose extends ToolClass {
      execute(input: { path: string }, _context: ToolContext): string {
        return input.path;
      }
    }
    expect(new Loose().execute({ path: 'p' }, context)).toBe('p');
  });

  it('refuses an execute whose input disagrees with the schema', () => {
    // @ts-expect-error `path` is a string in the schema, not a number
    @tool({ name: 'wrong_type', description: 'x', input: noteInput })
    class WrongType extends ToolClass {
      execute(input: { path: number }): string {
        return String(input.path);
      }
    }
    // @ts-expect-error `tag` is not in the schema (a method parameter, still checked strictly)
    @tool({ name: 'extra_field', description: 'x', input: noteInput })
    class ExtraField extends ToolClass {
      execute(input: { path: string; tag: string }): string {
        return input.tag;
      }
    }
    // @ts-expect-error without a schema the input is `unknown`, not a string
    @tool({ name: 'no_schema', description: 'x' })
    class NoSchema extends ToolClass {
      execute(input: string): string {
        return input;
      }
    }
    // The decorator still runs for untyped callers: the classes are tools at run time.
    expect([WrongType, ExtraField, NoSchema].map((cls) => new cls().name)).toEqual([
      'wrong_type',
      'extra_field',
      'no_schema',
    ]);
  });

  it('refuses declarations whose input disagrees with the schema', () => {
    // @ts-expect-error isConcurrencySafe takes a `size` the schema may not give
    @tool({ name: 'bad_safe', description: 'x', input: noteInput })
    class BadSafe extends ToolClass {
      isConcurrencySafe(input: { size: number }): boolean {
        return input.size > 0;
      }
      execute(): string {
        return '';
      }
    }
    // @ts-expect-error resourceKey takes a number, the schema gives an object
    @tool({ name: 'bad_key', description: 'x', input: noteInput })
    class BadKey extends ToolClass {
      resourceKey(input: number): string {
        return String(input);
      }
      execute(): string {
        return '';
      }
    }
    // @ts-expect-error access returns a mode that is neither read nor write
    @tool({ name: 'bad_access', description: 'x', input: noteInput })
    class BadAccess extends ToolClass {
      access(input: NoteInput) {
        return [{ key: input.path, mode: 'append' as const }];
      }
      execute(): string {
        return '';
      }
    }
    expect([BadSafe, BadKey, BadAccess].map((cls) => new cls().name)).toEqual([
      'bad_safe',
      'bad_key',
      'bad_access',
    ]);
  });
});
