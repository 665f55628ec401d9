export {
  type Access,
  type AccessMode,
  keysOverlap,
  type Plan,
  type PlanNode,
  type Planner,
} from '@toolwaves/planner';
export { abortableDelay } from './abortable-delay.js';
export { asTool } from './as-tool.js';
export { bindTools } from './bind-tools.js';
export {
  type CoordinationGrant,
  type CoordinationRequest,
  type Coordinator,
  noCoordination,
} from './coordinator.js';
export { type DeclareToolOptions, declareTool } from './declare-tool.js';
export { type ExecutedTool, type ExecuteToolOptions, executeTool } from './execute-tool.js';
export { type FnToolOptions, fnTool } from './fn-tool.js';
export {
  type AttemptEndInfo,
  type AttemptGrantInfo,
  type AttemptInstrument,
  type AttemptStartInfo,
  type BatchEndInfo,
  type BatchInstrument,
  type BatchStartInfo,
  type Instrumentation,
  noInstrumentation,
} from './instrumentation.js';
export type { JsonSchema } from './json-schema.js';
export { MalformedArguments } from './malformed-arguments.js';
export { type OutcomeUnknownTextOptions, outcomeUnknownText } from './outcome-unknown-text.js';
export {
  type AnthropicContentBlock,
  type AnthropicToolDefinition,
  type AnthropicToolResultBlock,
  type AnthropicToolResultMessage,
  fromAnthropicContent,
  toAnthropicToolResultMessage,
  toAnthropicTools,
} from './providers/anthropic.js';
export {
  type AnthropicStreamEvent,
  toolCallsFromAnthropicStream,
} from './providers/anthropic-stream.js';
export {
  fromOpenAIToolCalls,
  type OpenAIToolCall,
  type OpenAIToolDefinition,
  type OpenAIToolMessage,
  toOpenAIToolMessages,
  toOpenAITools,
} from './providers/openai.js';
export {
  type OpenAIChatStreamChunk,
  type OpenAIChatStreamOptions,
  type OpenAIToolCallDelta,
  toolCallsFromOpenAIChatStream,
} from './providers/openai-chat-stream.js';
export {
  type OpenAIResponsesStreamEvent,
  toolCallsFromOpenAIResponsesStream,
} from './providers/openai-responses-stream.js';
export type { ToolCallStream } from './providers/tee-tool-calls.js';
export { type ToolSchemaOptions, toolJsonSchema } from './providers/tool-json-schema.js';
export {
  type StepCallOptions,
  type StepCallOutcome,
  StepTurns,
  type TurnLike,
  type TurnSource,
} from './step-turns.js';
export type { Tool } from './tool.js';
export type { ToolCall } from './tool-call.js';
export { ToolClass } from './tool-class.js';
export type { ToolContext } from './tool-context.js';
export {
  type ToolClassDecorator,
  type ToolClassMembers,
  type ToolOptions,
  tool,
  toolMetadata,
} from './tool-decorator.js';
export type { ToolOutput } from './tool-output.js';
export { ToolRegistry, type ToPlanNodesOptions } from './tool-registry.js';
export type { ToolResult } from './tool-result.js';
export { TOOL } from './tool-token.js';
export { ToolwavesError, type ToolwavesErrorCode } from './toolwaves-error.js';
export {
  type TakenWaitForPrevious,
  takeWaitForPrevious,
  WAIT_FOR_PREVIOUS,
  WAIT_FOR_PREVIOUS_DESCRIPTION,
  type WithWaitForPreviousOptions,
  withWaitForPrevious,
} from './wait-for-previous.js';
export type { WhileStreaming } from './while-streaming.js';
