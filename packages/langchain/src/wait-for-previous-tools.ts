import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { withWaitForPrevious } from '@toolwaves/core';

/** A LangChain tool as a model request holds it: a tool object, or a provider's own definition. */
interface ToolLike {
  readonly name?: unknown;
  readonly description?: unknown;
  readonly schema?: unknown;
  readonly lc_namespace?: unknown;
}

/**
 * The tools bound to the model for one request, with the optional boolean `wait_for_previous`
 * added to each LangChain tool's parameters (for `modelOrdering`): each tool object becomes its
 * OpenAI-format function definition, so the tool node keeps running the original tools (the
 * model only reads the definitions). Anything else (a provider's built-in tool) is left as is.
 *
 * @throws ToolwavesError `invalid_tool` for a tool whose own input has `wait_for_previous`.
 */
export function withWaitForPreviousTools<T>(tools: readonly T[]): T[] {
  return tools.map((tool) => {
    const candidate = tool as ToolLike;
    if (typeof candidate.name !== 'string' || candidate.schema === undefined) return tool;
    const own = toJsonSchema(candidate.schema as Parameters<typeof toJsonSchema>[0]);
    const parameters = withWaitForPrevious({
      schema: own as Record<string, unknown>,
      toolName: candidate.name,
    });
    return {
      type: 'function',
      function: {
        name: candidate.name,
        description: typeof candidate.description === 'string' ? candidate.description : '',
        parameters,
      },
    } as T;
  });
}
