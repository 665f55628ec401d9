import { checkOption, checkOptions, type OptionRule, optionRules } from '@toolwaves/core/internal';
import type { McpClientLike } from './mcp-client-like.js';
import { McpToolsError } from './mcp-tools-error.js';
import type { McpTrust } from './mcp-trust.js';

/** A {@link McpToolsError} `invalid_options` with that message (the `error` of the checks). */
export function invalidOptions(message: string): McpToolsError {
  return new McpToolsError({ code: 'invalid_options', message });
}

/** What the fields of an MCP tool override must be (`McpToolOverride`). */
export const OVERRIDE_RULES = {
  readOnly: optionRules.boolean,
  concurrencySafe: {
    expected: 'a boolean or a function of the input',
    test: (value: unknown): value is unknown =>
      typeof value === 'boolean' || typeof value === 'function',
  },
  access: {
    expected: 'an array of accesses or a function of the input',
    test: (value: unknown): value is unknown => Array.isArray(value) || typeof value === 'function',
  },
  idempotent: optionRules.boolean,
  description: optionRules.string,
} satisfies Record<string, OptionRule<unknown>>;

/**
 * What each option of this package's functions must be, by name: each function checks the
 * ones it takes (`checkOptions` with a pick of these), so one name means one thing throughout.
 */
export const MCP_OPTION_RULES = {
  client: {
    expected: 'a connected MCP client with `listTools` and `callTool`',
    test: (value: unknown): value is McpClientLike =>
      optionRules.withMethods('', ['listTools', 'callTool']).test(value),
  },
  server: optionRules.nonEmptyString,
  signal: {
    expected: 'an AbortSignal',
    test: (value: unknown): value is AbortSignal => value instanceof AbortSignal,
  },
  overrides: { ...optionRules.object, expected: 'an object keyed by tool name' },
  override: optionRules.object,
  prefix: optionRules.string,
  requestTimeoutMs: optionRules.integerFrom(1),
  roots: optionRules.arrayOf('an array of directory paths', optionRules.nonEmptyString),
  listed: {
    expected: 'a listed MCP tool ({ name, inputSchema })',
    test: (value: unknown): value is object =>
      optionRules.object.test(value) && typeof (value as { name?: unknown }).name === 'string',
  },
  registry: optionRules.withMethods('a ToolRegistry', ['get', 'add']),
  trust: {
    expected: "'annotations' or 'none'",
    test: (value: unknown): value is McpTrust => value === 'annotations' || value === 'none',
  },
} satisfies Record<string, OptionRule<unknown>>;

/** The rules of the options of that name, for `checkOptions`. */
export function mcpOptionRules(
  names: readonly (keyof typeof MCP_OPTION_RULES)[],
): Readonly<Record<string, OptionRule<unknown>>> {
  return Object.fromEntries(names.map((name) => [name, MCP_OPTION_RULES[name]]));
}

/**
 * Checks one override (`overrides.<tool>` of mcpTools, `override` of mcpTool): an object of
 * known fields only, each by its rule.
 */
export function checkOverride(check: { readonly name: string; readonly override: unknown }): void {
  const { name, override: value } = check;
  checkOption({ name, value, rule: optionRules.object, error: invalidOptions });
  checkOptions({
    subject: `\`${check.name}\``,
    options: check.override,
    rules: OVERRIDE_RULES,
    error: invalidOptions,
  });
}
