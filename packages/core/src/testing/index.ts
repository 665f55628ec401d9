export { type BatchEnds, batchEnds } from './batch-ends.js';
export { type ControlledStream, controlledStream } from './controlled-stream.js';
export { MockTool, type MockToolCall, type MockToolOptions } from './mock-tool.js';
export { type GateEvent, ToolGates } from './tool-gates.js';
export { type TrackedPromise, trackPromise } from './track-promise.js';
export {
  driveWaitForPrevious,
  TopicGates,
  topicInput,
  WAIT_FOR_PREVIOUS_ORDER,
  WAIT_FOR_PREVIOUS_TURN,
  waitForPreviousRegistry,
} from './wait-for-previous-turn.js';
export {
  probeRegistry,
  WAITING_CALL_SCENARIOS,
  type WaitingCallScenario,
} from './waiting-call-scenarios.js';
export { type WithLatencyOptions, withLatency } from './with-latency.js';
