import { checkOption } from './check-option.js';
import { type OptionRule, optionRules } from './option-rule.js';
import type { Tool } from './tool.js';
import type { ToolRegistry } from './tool-registry.js';

type RegistryLike = Pick<ToolRegistry, 'names' | 'get'>;

/** Options of {@link toolList}. */
export interface ToolListOptions {
  /** The function given the tools, for the message: `'toLangChainTools'`. */
  readonly subject: string;
  /** What it was given: a {@link ToolRegistry} or an array of tools (anything: it is checked). */
  readonly tools: unknown;
  /** Makes the package's own error from the message. */
  readonly error: (message: string) => Error;
}

/** What a registry is here: known by its methods, so a registry of another copy of core fits. */
const REGISTRY = optionRules.withMethods('a ToolRegistry', ['names', 'get']);

const REGISTRY_OR_ARRAY: OptionRule<RegistryLike | readonly unknown[]> = {
  expected: 'a ToolRegistry or an array of tools',
  test: (value): value is RegistryLike | readonly unknown[] =>
    Array.isArray(value) || REGISTRY.test(value),
};

const TOOL: OptionRule<Tool> = {
  expected: 'a tool ({ name: string, description: string, execute(input, context) })',
  test: (value): value is Tool =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<Tool>).name === 'string' &&
    typeof (value as Partial<Tool>).execute === 'function',
};

/**
 * The tools a converter was given (`toLangChainTools(registry)`, `toAgentsTools([tool])`), as
 * an array, checked: a missing or wrong argument is the package's own error naming it
 * ("Expected the tools of toLangChainTools to be a ToolRegistry or an array of tools, got
 * `undefined` (undefined)"), never a `TypeError` from inside.
 *
 * @example
 * ```ts
 * const list = toolList({ subject: 'toAgentsTools', tools, error: invalid });
 * ```
 * @see checkOptions, the same for options objects.
 */
export function toolList(options: ToolListOptions): Tool[] {
  const { subject, error } = options;
  const tools = checkOption({
    name: 'tools',
    subject: `the tools of ${subject}`,
    value: options.tools,
    rule: REGISTRY_OR_ARRAY,
    error,
  });
  if (!Array.isArray(tools)) {
    const registry = tools as RegistryLike;
    return registry.names().map((name) => registry.get(name) as Tool);
  }
  return tools.map((tool, i) =>
    checkOption({ name: `tools[${i}]`, value: tool, rule: TOOL, error }),
  );
}
