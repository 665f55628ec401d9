// What a user of the bench needs: run it (with their own strategies or workloads), read and
// render its report, and replay their own transcripts.
export { BenchError, type BenchErrorCode } from './bench-error.js';
export type { BenchProfile } from './bench-profile.js';
export type {
  RateLimitedFigures,
  RateLimitedRow,
} from './limits/compare-remote-strategies.js';
export type { RemoteServer } from './limits/remote-turns.js';
export type * from './report/bench-report.js';
export { headlineMarkdown } from './report/headline-markdown.js';
export { renderHtml } from './report/render-html.js';
export { renderJson } from './report/render-json.js';
export { renderMarkdown } from './report/render-markdown.js';
export { type RunBenchOptions, runBench } from './run-bench.js';
export {
  type DefaultStrategiesOptions,
  defaultStrategies,
} from './strategies/default-strategies.js';
export { type PlannerStrategyOptions, plannerStrategy } from './strategies/planner-strategy.js';
export type * from './strategies/strategy.js';
export { loadTraceMappings } from './trace/load-trace-mappings.js';
export { readTrace } from './trace/read-trace.js';
export { renderTraceHtml, renderTraceMarkdown } from './trace/render-trace-report.js';
export type * from './trace/replay-trace.js';
export { replayTrace } from './trace/replay-trace.js';
export type { Trace, TraceCall, TraceFormat, TraceTurn } from './trace/trace.js';
export type * from './trace/trace-declarations.js';
export { BUILT_IN_MAPPINGS } from './trace/trace-declarations.js';
export type { ToolLatency } from './workloads/tool-latency.js';
export type * from './workloads/workload.js';
export type { WorkspaceLayout } from './workloads/workspace-layout.js';
