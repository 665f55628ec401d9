export {
  LangChainAdapterError,
  type LangChainAdapterErrorCode,
  type LangChainAdapterErrorOptions,
} from './langchain-adapter-error.js';
export type { LangChainToolCallLike } from './run-langchain-tool-call.js';
export { toLangChainTools } from './to-langchain-tools.js';
export { type ToolwavesMiddlewareOptions, toolwavesMiddleware } from './toolwaves-middleware.js';
export { ToolwavesToolNode, type ToolwavesToolNodeOptions } from './toolwaves-tool-node.js';
