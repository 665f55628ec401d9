// What a user of the bench needs: run it, add strategies and workloads, render the report.
export { BenchError, type BenchErrorCode } from './bench-error.js';
export { type BenchProfile, FULL_PROFILE, QUICK_PROFILE } from './bench-profile.js';
export type {
  BatchFigures,
  BenchMeta,
  BenchReport,
  EstimateAccuracy,
  MeanPlanningTime,
  OverallFigures,
  RealRunFigures,
  ScalingPoint,
  Spread,
  StrategyInfo,
  StrategySummary,
  TurnMode,
  TurnResult,
  WorkloadFigures,
} from './report/bench-report.js';
export { headlineMarkdown } from './report/headline-markdown.js';
export { renderHtml } from './report/render-html.js';
export { renderJson } from './report/render-json.js';
export { renderMarkdown } from './report/render-markdown.js';
export { type RunBenchOptions, runBench } from './run-bench.js';
export {
  DEFAULT_OPTIMAL_BUDGET_MS,
  DEFAULT_OPTIMAL_EXPANSIONS,
  type DefaultStrategiesOptions,
  defaultStrategies,
  eagerStrategy,
} from './strategies/default-strategies.js';
export {
  allAtOnceStrategy,
  CLAUDE_CODE_MAX_CONCURRENCY,
  consecutiveReadOnlyStrategy,
  globalRwLockStrategy,
  isReadOnly,
  waitThenAllAtOnceStrategy,
} from './strategies/peer-strategies.js';
export { type PlannerStrategyOptions, plannerStrategy } from './strategies/planner-strategy.js';
export type {
  EagerExecution,
  Execution,
  Strategy,
  TurnView,
  WavesExecution,
} from './strategies/strategy.js';
export { loadTraceMappings } from './trace/load-trace-mappings.js';
export { readTrace } from './trace/read-trace.js';
export { renderTraceHtml, renderTraceMarkdown } from './trace/render-trace-report.js';
export {
  type ReplayTraceOptions,
  replayTrace,
  type TraceCounts,
  type TraceReport,
  type TraceStrategyFigures,
} from './trace/replay-trace.js';
export type { Trace, TraceCall, TraceFormat, TraceTurn } from './trace/trace.js';
export {
  BUILT_IN_MAPPINGS,
  declareCall,
  type MappingContext,
  TOOL_KIND_LATENCY,
  type ToolKind,
  type TraceDeclaration,
  type TraceMapping,
  type TraceMappings,
} from './trace/trace-declarations.js';
export { BatchBuilder } from './workloads/batch-builder.js';
export { defaultWorkloads } from './workloads/default-workloads.js';
export { TOOL_LATENCY, type ToolLatency } from './workloads/tool-latency.js';
export type {
  BatchRequest,
  SeedModelWorkload,
  ToolWorkload,
  Workload,
  WorkloadBatch,
} from './workloads/workload.js';
export type { WorkspaceLayout } from './workloads/workspace-layout.js';
