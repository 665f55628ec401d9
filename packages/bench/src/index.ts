// What a user of the bench needs: run it, add strategies and workloads, render the report.
export { BenchError, type BenchErrorCode } from './bench-error.js';
export { type BenchProfile, FULL_PROFILE, QUICK_PROFILE } from './bench-profile.js';
export { type WithLatencyOptions, withLatency } from './real/with-latency.js';
export type {
  BatchFigures,
  BatchResult,
  BenchMeta,
  BenchReport,
  GanttBar,
  GanttFigures,
  PlannerResult,
  RealRunFigures,
  ScalingPoint,
  VersusReference,
  WorkloadFigures,
} from './report/bench-report.js';
export { headlineMarkdown } from './report/headline-markdown.js';
export { renderHtml } from './report/render-html.js';
export { renderJson } from './report/render-json.js';
export { renderMarkdown } from './report/render-markdown.js';
export { type RunBenchOptions, runBench } from './run-bench.js';
export { benchContainer } from './strategies/bench-container.js';
export { PLANNER } from './strategies/planner-token.js';
export { type PlannersModuleOptions, plannersModule } from './strategies/planners-module.js';
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
