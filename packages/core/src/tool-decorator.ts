import 'reflect-metadata';
import type { Access } from '@toolwaves/planner';
import { injectable } from 'inversify';
import type { output, ZodType } from 'zod';
import { checkOption } from './check-option.js';
import { checkOptions } from './check-options.js';
import { DECLARATION_RULES } from './fn-tool.js';
import { optionRules } from './option-rule.js';
import type { ToolContext } from './tool-context.js';
import type { ToolOutput } from './tool-output.js';
import { invalidTool, ToolwavesError } from './toolwaves-error.js';

/** What `@tool` says about a class tool. */
export interface ToolOptions<S extends ZodType = ZodType> {
  /** The name the model calls the tool by; unique in a registry. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** zod 4 schema for the tool's input; its output type is what the class's methods take. */
  readonly input?: S;
  /** `'after-previous'`: each call waits for every earlier call of its turn (`Tool.runs`). */
  readonly runs?: 'after-previous';
}

/**
 * The methods a `@tool` class must have, typed by its schema's output `I`. Written as function
 * properties (not methods) so the parameters are checked strictly: a method that takes
 * something other than what the schema gives does not compile.
 */
export interface ToolClassMembers<I> {
  execute: (input: I, context: ToolContext) => Promise<string | ToolOutput> | string | ToolOutput;
  isConcurrencySafe?: (input: I) => boolean;
  resourceKey?: (input: I) => string | undefined;
  access?: (input: I) => readonly Access[];
}

/** The decorator `@tool` returns: it takes only classes whose methods fit the schema. */
export type ToolClassDecorator<I> = <
  C extends abstract new (
    ...args: never[]
  ) => ToolClassMembers<I>,
>(
  target: C,
) => void;

const TOOL_METADATA = Symbol.for('toolwaves.tool-metadata');

/**
 * Marks a class as a tool and makes it injectable (one decorator, not two). The class provides
 * `execute(input, context)` and, optionally, the per-input declarations `isConcurrencySafe`,
 * `resourceKey` and `access`; its instances get `name`, `description` and `input` from here.
 * The schema types those methods: one that takes something the schema does not give (a wrong
 * annotation) is a compile error. Extend {@link ToolClass} to have the instances typed as tools.
 * Needs `experimentalDecorators` in the tsconfig.
 *
 * @example
 * ```ts
 * const readInput = z.object({ path: z.string() });
 *
 * @tool({ name: 'read_file', description: 'Read a file', input: readInput })
 * class ReadFile extends ToolClass {
 *   constructor(@inject(Workspace) private readonly ws: Workspace) { super(); }
 *   isConcurrencySafe() { return true; }
 *   access({ path }: z.infer<typeof readInput>) { return [{ key: `fs:${path}`, mode: 'read' as const }]; }
 *   execute({ path }: z.infer<typeof readInput>) { return this.ws.read(path); }
 * }
 * ```
 * @see bindTools to bind decorated classes in a container.
 */
export function tool<S extends ZodType = ZodType>(
  options: ToolOptions<S>,
): ToolClassDecorator<output<S>> {
  checkOptions({
    subject: '@tool',
    options,
    rules: {
      description: optionRules.string,
      input: DECLARATION_RULES.input!,
      runs: DECLARATION_RULES.runs!,
    },
    checkedApart: ['name'],
    error: invalidTool,
  });
  checkOption({
    name: 'name',
    subject: '`name` of @tool',
    value: options?.name,
    rule: optionRules.nonEmptyString,
    error: invalidTool,
  });
  return (target) => {
    if (typeof target.prototype?.execute !== 'function') {
      throw new ToolwavesError({
        code: 'invalid_tool',
        message: `@tool({ name: '${options.name}' }) is on class \`${target.name}\`, which has no \`execute\` method`,
      });
    }
    Reflect.defineMetadata(TOOL_METADATA, options, target);
    for (const key of ['name', 'description', 'input', 'runs'] as const) {
      if (key === 'runs' && options.runs === undefined) continue;
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
