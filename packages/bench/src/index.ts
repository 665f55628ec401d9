// What a user of the bench needs: run it, add strategies and workloads, render the report.
export { BenchError, type BenchErrorCode } from './bench-error.js';
export { type BenchProfile, FULL_PROFILE, QUICK_PROFILE } from './bench-profile.js';
export type {
  BatchFigures,
  BenchMeta,
  BenchReport,
  EstimateAccuracy,
  GanttBar,
  GanttFigures,
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
export { allAtOnceStrategy } from './strategies/all-at-once-strategy.js';
export { benchContainer } from './strategies/bench-container.js';
export {
  CLAUDE_CODE_MAX_CONCURRENCY,
  consecutiveReadOnlyStrategy,
} from './strategies/consecutive-read-only-strategy.js';
export { eagerStrategy } from './strategies/eager-strategy.js';
export {
  type GlobalRwLockStrategyOptions,
  globalRwLockStrategy,
} from './strategies/global-rw-lock-strategy.js';
export { type PlannerStrategyOptions, plannerStrategy } from './strategies/planner-strategy.js';
export { PLANNER } from './strategies/planner-token.js';
export {
  DEFAULT_OPTIMAL_BUDGET_MS,
  DEFAULT_OPTIMAL_EXPANSIONS,
  type PlannersModuleOptions,
  plannersModule,
} from './strategies/planners-module.js';
export { isReadOnly } from './strategies/read-only.js';
export { strategiesModule } from './strategies/strategies-module.js';
export type {
  DependenciesExecution,
  EagerExecution,
  Execution,
  Strategy,
  TurnView,
  WavesExecution,
} from './strategies/strategy.js';
export { STRATEGY } from './strategies/strategy-token.js';
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
