/**
 * The names of the OpenTelemetry GenAI semantic conventions this package emits, for a tool's
 * execution. The conventions are still in development (and the constants of
 * `@opentelemetry/semantic-conventions` for them are deprecated), so the names are kept here,
 * one place to follow them when they move.
 *
 * @example
 * ```ts
 * const calls = exporter.getFinishedSpans().filter(
 *   (span) => span.attributes[ATTR_GEN_AI_OPERATION_NAME] === GEN_AI_OPERATION_EXECUTE_TOOL,
 * );
 * ```
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-agent-spans/#execute-tool-span
 */
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
/** The value of {@link ATTR_GEN_AI_OPERATION_NAME} on a tool's span: `execute_tool`. */
export const GEN_AI_OPERATION_EXECUTE_TOOL = 'execute_tool';
/** The tool's name, e.g. `read_file`. */
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
/** The id the model gave the call. */
export const ATTR_GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id';
/** The tool's type: toolwaves tools run in the application, so always `function`. */
export const ATTR_GEN_AI_TOOL_TYPE = 'gen_ai.tool.type';
/** The value of {@link ATTR_GEN_AI_TOOL_TYPE}: a tool the application runs itself. */
export const GEN_AI_TOOL_TYPE_FUNCTION = 'function';
/** The tool's description, as the registry holds it. */
export const ATTR_GEN_AI_TOOL_DESCRIPTION = 'gen_ai.tool.description';
/** The call's arguments as JSON. Opt-in only (`recordArguments`): they may hold anything. */
export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
/** The call's answer. Opt-in only (`recordResults`): it may hold anything. */
export const ATTR_GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result';
/** The class of error an operation ended with: for a call, the soft error's kind (`timeout`, ...). */
export const ATTR_ERROR_TYPE = 'error.type';
/** The histogram of tool execution times, in seconds (one point per `execute_tool` span). */
export const METRIC_GEN_AI_EXECUTE_TOOL_DURATION = 'gen_ai.execute_tool.duration';

/**
 * The name of a tool's span under the conventions: `execute_tool {gen_ai.tool.name}`.
 *
 * @example
 * ```ts
 * executeToolSpanName('read_file'); // 'execute_tool read_file'
 * ```
 */
export function executeToolSpanName(toolName: string): string {
  return `${GEN_AI_OPERATION_EXECUTE_TOOL} ${toolName}`;
}
