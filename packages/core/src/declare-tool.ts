import type { Access } from '@toolwaves/planner';
import type { ZodType } from 'zod';
import { checkOptions } from './check-options.js';
import { DECLARATION_RULES, fnTool } from './fn-tool.js';
import type { Tool } from './tool.js';
import { invalidTool } from './toolwaves-error.js';

/** Options of {@link declareTool}: a tool's declarations, without an implementation. */
export interface DeclareToolOptions<I> {
  readonly name: string;
  /** Default: the name. */
  readonly description?: string;
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
}

/**
 * A tool known only by its declarations, for frameworks that execute their tools themselves
 * (LangChain, OpenAI Agents, the AI SDK with `execute`): the Dispatcher schedules its calls by
 * these declarations, and a turn's `run(call, execute)` supplies the implementation. Run
 * without one, a call is answered with a soft error saying so.
 *
 * @example
 * ```ts
 * registry.add(declareTool({
 *   name: 'edit_file',
 *   input: z.object({ path: z.string() }),
 *   concurrencySafe: true,
 *   access: ({ path }) => [{ key: `fs:/${path}`, mode: 'write' }],
 * }));
 * ```
 * @see fnTool for a tool with its implementation.
 */
export function declareTool<I>(options: DeclareToolOptions<I>): Tool<I> {
  checkOptions({
    subject: 'declareTool',
    options,
    rules: DECLARATION_RULES,
    checkedApart: ['name', 'idempotent'],
    error: invalidTool,
  });
  const name = options.name;
  return fnTool<I>({
    ...options,
    description: options.description ?? name,
    execute: () => ({
      content: `tool \`${name}\` is declared only: its implementation comes from the framework that runs it (a turn's run(call, execute))`,
      isError: true,
    }),
  });
}
