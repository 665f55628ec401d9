import 'reflect-metadata';
import { injectable } from 'inversify';
import type { ZodType } from 'zod';
import { checkOption } from './check-option.js';
import { optionRules } from './option-rule.js';
import { invalidTool, ToolwavesError } from './toolwaves-error.js';

/** What `@tool` says about a class tool. */
export interface ToolOptions {
  /** The name the model calls the tool by; unique in a registry. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** zod 4 schema for the tool's input. */
  readonly input?: ZodType;
}

const TOOL_METADATA = Symbol.for('toolwaves.tool-metadata');

/**
 * Marks a class as a tool and makes it injectable (one decorator, not two). The class provides
 * `execute(input, context)` and, optionally, the per-input declarations `isConcurrencySafe`,
 * `resourceKey` and `access`; its instances get `name`, `description` and `input` from here.
 *
 * @example
 * ```ts
 * @tool({ name: 'read_file', description: 'Read a file', input: z.object({ path: z.string() }) })
 * class ReadFile {
 *   constructor(@inject(Workspace) private readonly ws: Workspace) {}
 *   isConcurrencySafe() { return true; }
 *   access({ path }: { path: string }) { return [{ key: `fs:${path}`, mode: 'read' as const }]; }
 *   execute({ path }: { path: string }) { return this.ws.read(path); }
 * }
 * ```
 * @see bindTools to bind decorated classes in a container.
 */
export function tool(options: ToolOptions): ClassDecorator {
  checkOption({
    name: 'name',
    subject: '`name` of @tool',
    value: options?.name,
    rule: optionRules.nonEmptyString,
    error: invalidTool,
  });
  return (target) => {
    if (typeof target.prototype.execute !== 'function') {
      throw new ToolwavesError({
        code: 'invalid_tool',
        message: `@tool({ name: '${options.name}' }) is on class \`${target.name}\`, which has no \`execute\` method`,
      });
    }
    Reflect.defineMetadata(TOOL_METADATA, options, target);
    for (const key of ['name', 'description', 'input'] as const) {
      if (!Object.hasOwn(target.prototype, key)) {
        Object.defineProperty(target.prototype, key, {
          configurable: true,
          get: () => options[key],
        });
      }
    }
    injectable()(target);
  };
}

/**
 * The `@tool` options of a class, or `undefined` when the class is not decorated.
 */
export function toolMetadata(
  target: abstract new (...args: never[]) => unknown,
): ToolOptions | undefined {
  return Reflect.getMetadata(TOOL_METADATA, target) as ToolOptions | undefined;
}
