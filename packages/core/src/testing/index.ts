export { MockTool, type MockToolCall, type MockToolOptions } from './mock-tool.js';
