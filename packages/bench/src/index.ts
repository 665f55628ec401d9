export { type WithLatencyOptions, withLatency } from './with-latency.js';
