import type { ZodType } from 'zod';
import type { ToolContext } from './tool-context.js';
import type { ToolOutput } from './tool-output.js';

/**
 * An optional base of `@tool` classes: it gives their instances the `name`, `description` and
 * `input` the decorator sets, so an instance is a `Tool` to the type checker without a
 * line of `declare` per field. The decorator's schema types the class's methods (see `tool`).
 *
 * @example
 * ```ts
 * const greetInput = z.object({ who: z.string() });
 *
 * @tool({ name: 'greet', description: 'Greets someone', input: greetInput })
 * class Greet extends ToolClass {
 *   execute({ who }: z.infer<typeof greetInput>) { return `hello ${who}`; }
 * }
 * registry.add(new Greet()); // a Tool: name 'greet'
 * ```
 * @see tool
 */
export abstract class ToolClass {
  /** Set by `@tool`. */
  declare readonly name: string;
  /** Set by `@tool`. */
  declare readonly description: string;
  /** Set by `@tool` (absent when the tool takes no schema). */
  declare readonly input?: ZodType;
  abstract execute(
    input: never,
    context: ToolContext,
  ): Promise<string | ToolOutput> | string | ToolOutput;
}
