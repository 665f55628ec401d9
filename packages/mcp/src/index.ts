export { type AddMcpToolsOptions, addMcpTools } from './add-mcp-tools.js';
export {
  type FilesystemServerOverridesOptions,
  filesystemServerOverrides,
} from './filesystem-server-overrides.js';
export { type ListAllMcpToolsOptions, listAllMcpTools } from './list-all-mcp-tools.js';
export type {
  McpClientLike,
  McpListedTool,
  McpListToolsResult,
  McpRequestOptions,
  McpToolAnnotations,
} from './mcp-client-like.js';
export { mcpInputSchema } from './mcp-input-schema.js';
export {
  type McpPathKey,
  McpPathKeys,
  type McpPathKeysFromServerOptions,
  type McpPathKeysOptions,
  type McpPathUse,
} from './mcp-path-keys.js';
export { mcpServerKey } from './mcp-server-key.js';
export { type McpTool, type McpToolOptions, mcpTool } from './mcp-tool.js';
export { mcpToolOutput } from './mcp-tool-output.js';
export type { McpToolInput, McpToolOverride } from './mcp-tool-override.js';
export { type McpToolsOptions, mcpTools } from './mcp-tools.js';
export {
  McpToolsError,
  type McpToolsErrorCode,
  type McpToolsErrorOptions,
} from './mcp-tools-error.js';
export type { McpTrust } from './mcp-trust.js';
export {
  type TraceContextMeta,
  traceContextMeta,
  withTraceContext,
} from './trace-context-meta.js';
