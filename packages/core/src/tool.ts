import type { Access } from '@toolwaves/planner';
import type { ZodType } from 'zod';
import type { JsonSchema } from './json-schema.js';
import type { ToolContext } from './tool-context.js';
import type { ToolOutput } from './tool-output.js';

/**
 * A tool the model can call. Declarations are per input: the same tool may be safe for one
 * call and not for another.
 *
 * @example
 * ```ts
 * const readFile: Tool<{ path: string }> = {
 *   name: 'read_file',
 *   description: 'Read a file',
 *   input: z.object({ path: z.string() }),
 *   isConcurrencySafe: () => true,
 *   access: ({ path }) => [{ key: `fs:/${path}`, mode: 'read' }],
 *   execute: ({ path }) => fs.readFile(path, 'utf8'),
 * };
 * ```
 * @see fnTool for a shorter way to write one.
 */
export interface Tool<I = unknown> {
  readonly name: string;
  readonly description: string;
  /** zod 4 schema the input is validated against before anything else runs. */
  readonly input?: ZodType<I>;
  /**
   * The input's JSON Schema for provider tool definitions, when the tool has one of its own
   * (e.g. from an MCP server); preferred over the schema derived from `input`.
   */
  readonly jsonSchema?: JsonSchema;
  /** Whether this call may run alongside others. Default `false`; a throw means `false`. */
  isConcurrencySafe?(input: I): boolean;
  /** Seed model: the one resource this call touches, exclusively. */
  resourceKey?(input: I): string | undefined;
  /** Richer model: every resource this call reads or writes. */
  access?(input: I): readonly Access[];
  /**
   * Running it again with the same input (and `ToolContext.idempotencyKey`) has no further
   * effect, so a durable turn may re-run it after a crash cut it off. Default `false`.
   */
  readonly idempotent?: boolean;
  /**
   * The named limits this call counts against, with its weight in each (`{ github: 1 }`): each
   * name must be a limit of the Dispatcher (`limits`) or of its coordinator, each weight an
   * integer from 1 up to that limit's capacity (README: Named limits). Default none.
   */
  limits?(input: I): Readonly<Record<string, number>>;
  /**
   * Named limits every call of the tool counts against when the Dispatcher or its coordinator
   * has a limit of that name, and that are ignored otherwise (an MCP server's `mcp:<server>`).
   * A name in `limits` takes the weight given there.
   */
  readonly limitsIfConfigured?: Readonly<Record<string, number>>;
  /**
   * `'after-previous'`: each call of this tool starts only after every earlier call of its turn
   * (model order) has ended — for tools like `commit` or `deploy`. Default: no such wait.
   */
  readonly runs?: 'after-previous';
  execute(input: I, context: ToolContext): Promise<string | ToolOutput> | string | ToolOutput;
}
