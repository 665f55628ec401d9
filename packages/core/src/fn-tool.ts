import type { Access } from '@toolwaves/planner';
import type { ZodType } from 'zod';
import { checkOption } from './check-option.js';
import { checkOptions } from './check-options.js';
import { type OptionRule, optionRules } from './option-rule.js';
import type { Tool } from './tool.js';
import type { ToolContext } from './tool-context.js';
import type { ToolOutput } from './tool-output.js';
import { invalidTool } from './toolwaves-error.js';

/** Options of {@link fnTool}: the tool, with static or per-input declarations. */
export interface FnToolOptions<I> {
  readonly name: string;
  readonly description: string;
  readonly input?: ZodType<I>;
  /** Safe to run alongside others: a constant or a predicate on the input. Default `false`. */
  readonly concurrencySafe?: boolean | ((input: I) => boolean);
  /** The exclusive resource: a constant or a function of the input. */
  readonly resourceKey?: string | ((input: I) => string | undefined);
  /** The resources read or written: a constant list or a function of the input. */
  readonly access?: readonly Access[] | ((input: I) => readonly Access[]);
  /** Safe to run again after a crash cut it off (durable turns, `Tool.idempotent`). Default `false`. */
  readonly idempotent?: boolean;
  /** The named limits a call counts against, with weights (`Tool.limits`): a constant or a function of the input. */
  readonly limits?:
    | Readonly<Record<string, number>>
    | ((input: I) => Readonly<Record<string, number>>);
  /** `'after-previous'`: each call waits for every earlier call of its turn (`Tool.runs`). */
  readonly runs?: 'after-previous';
  readonly execute: (
    input: I,
    context: ToolContext,
  ) => Promise<string | ToolOutput> | string | ToolOutput;
}

/**
 * What a tool's declarations must be, in `fnTool` and `declareTool` (`name` and `execute` are
 * checked apart, named with the tool).
 */
export const DECLARATION_RULES: Readonly<Record<string, OptionRule<unknown>>> = {
  description: optionRules.string,
  input: optionRules.withMethods('a zod schema', ['safeParse']),
  concurrencySafe: {
    expected: 'a boolean or a function of the input',
    test: (value): value is unknown => typeof value === 'boolean' || typeof value === 'function',
  },
  resourceKey: {
    expected: 'a string or a function of the input',
    test: (value): value is unknown => typeof value === 'string' || typeof value === 'function',
  },
  access: {
    expected: 'an array of accesses or a function of the input',
    test: (value): value is unknown => Array.isArray(value) || typeof value === 'function',
  },
  limits: {
    expected: 'an object of limit names and weights, or a function of the input',
    test: (value): value is unknown =>
      typeof value === 'function' ||
      (typeof value === 'object' && value !== null && !Array.isArray(value)),
  },
  runs: optionRules.oneOf(['after-previous']),
};

/**
 * Makes a tool from a function and its declarations.
 *
 * @example
 * ```ts
 * const grep = fnTool({
 *   name: 'grep',
 *   description: 'Search files',
 *   input: z.object({ pattern: z.string() }),
 *   concurrencySafe: true,
 *   execute: ({ pattern }) => search(pattern),
 * });
 * ```
 * @see tool for class tools with injected dependencies.
 */
export function fnTool<I>(options: FnToolOptions<I>): Tool<I> {
  checkOptions({
    subject: 'fnTool',
    options,
    rules: DECLARATION_RULES,
    checkedApart: ['name', 'execute', 'idempotent'],
    error: invalidTool,
  });
  const name = checkOption({
    name: 'name',
    subject: '`name` of fnTool',
    value: options?.name,
    rule: optionRules.nonEmptyString,
    error: invalidTool,
  });
  checkOption({
    name: 'execute',
    subject: `\`execute\` of fnTool \`${name}\``,
    value: options.execute,
    rule: optionRules.function,
    error: invalidTool,
  });
  if (options.idempotent !== undefined) {
    checkOption({
      name: 'idempotent',
      subject: `\`idempotent\` of fnTool \`${name}\``,
      value: options.idempotent,
      rule: optionRules.boolean,
      error: invalidTool,
    });
  }
  const { concurrencySafe, resourceKey, access, limits } = options;
  const built: Tool<I> = {
    name: options.name,
    description: options.description,
    ...(options.input === undefined ? {} : { input: options.input }),
    isConcurrencySafe: (input) =>
      typeof concurrencySafe === 'function' ? concurrencySafe(input) : concurrencySafe === true,
    ...(resourceKey === undefined
      ? {}
      : {
          resourceKey: (input: I) =>
            typeof resourceKey === 'function' ? resourceKey(input) : resourceKey,
        }),
    ...(access === undefined
      ? {}
      : { access: (input: I) => (typeof access === 'function' ? access(input) : access) }),
    ...(options.idempotent === undefined ? {} : { idempotent: options.idempotent }),
    ...(limits === undefined
      ? {}
      : { limits: (input: I) => (typeof limits === 'function' ? limits(input) : limits) }),
    ...(options.runs === undefined ? {} : { runs: options.runs }),
    execute: options.execute,
  };
  return built;
}
