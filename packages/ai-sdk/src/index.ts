export {
  type AiSdkStepLike,
  type DispatchedStep,
  type DispatchStepOptions,
  dispatchStep,
} from './dispatch-step.js';
export {
  type AiSdkStreamedStepLike,
  type DispatchStreamedStepOptions,
  dispatchStreamedStep,
} from './dispatch-streamed-step.js';
export { type AiSdkToolCallLike, fromAiSdkToolCalls } from './from-ai-sdk-tool-calls.js';
export { type RunToolLoopOptions, runToolLoop, type ToolLoopSettings } from './run-tool-loop.js';
export { toAiSdkToolMessage } from './to-ai-sdk-tool-message.js';
export { type ToAiSdkToolsOptions, toAiSdkTools } from './to-ai-sdk-tools.js';
export {
  ToolLoopError,
  type ToolLoopErrorCode,
  type ToolLoopErrorOptions,
} from './tool-loop-error.js';
export type { ToolLoopResult, ToolLoopStep } from './tool-loop-step.js';
export { type WithToolwavesOptions, withToolwaves } from './with-toolwaves.js';
