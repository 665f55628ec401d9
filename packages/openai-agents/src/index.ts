export {
  AgentsAdapterError,
  type AgentsAdapterErrorCode,
  type AgentsAdapterErrorOptions,
} from './agents-adapter-error.js';
export { toAgentsTools } from './to-agents-tools.js';
export { type WithToolwavesOptions, withToolwaves } from './with-toolwaves.js';
