export { BatchBuilder } from './batch-builder.js';
export type { BenchBatch, BenchWorkload } from './bench-batch.js';
export { benchContainer } from './bench-container.js';
export { BenchError, type BenchErrorCode } from './bench-error.js';
export { type BenchProfile, FULL_PROFILE, QUICK_PROFILE } from './bench-profile.js';
export { benchRegistry } from './bench-registry.js';
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
} from './bench-report.js';
export { callLabel } from './call-label.js';
export { type GanttChartOptions, ganttChart } from './charts/gantt-chart.js';
export {
  type BarSeries,
  type GroupedBarChartOptions,
  groupedBarChart,
} from './charts/grouped-bar-chart.js';
export { type LineSeries, type LogLogChartOptions, logLogChart } from './charts/log-log-chart.js';
export { chooseLatencyScale } from './choose-latency-scale.js';
export { type ComparePlannersOptions, comparePlanners } from './compare-planners.js';
export { type CreateWorkspaceOptions, createWorkspace } from './create-workspace.js';
export { type EditInput, FileEdits } from './file-edits.js';
export { formatDuration, formatPercent, formatRatio } from './format-figures.js';
export { type GanttFiguresOptions, ganttFigures } from './gantt-figures.js';
export { type GenerateBatchesOptions, generateBatches } from './generate-batches.js';
export { type MeasureScalingOptions, measureScaling } from './measure-scaling.js';
export { minimalWaveCount } from './minimal-wave-count.js';
export { mulberry32 } from './mulberry32.js';
export { BENCH_USAGE, type BenchArgs, parseBenchArgs } from './parse-bench-args.js';
export {
  type GanttChoice,
  type PickGanttBatchOptions,
  pickGanttBatch,
} from './pick-gantt-batch.js';
export { PLANNER } from './planner-token.js';
export { type PlannersModuleOptions, plannersModule } from './planners-module.js';
export {
  type CreateProgressOptions,
  createProgress,
  formatProgress,
  type Progress,
  type ProgressState,
  type ProgressStream,
} from './progress.js';
export { headlineFindings } from './report/headline-findings.js';
export { headlineMarkdown } from './report/headline-markdown.js';
export { type MarkdownTableOptions, markdownTable } from './report/markdown-table.js';
export { markdownToHtml } from './report/markdown-to-html.js';
export { type OverallResult, overallResults } from './report/overall-results.js';
export { renderHtml } from './report/render-html.js';
export { renderJson } from './report/render-json.js';
export { renderMarkdown } from './report/render-markdown.js';
export { HEADLINE_END, HEADLINE_START, replaceHeadline } from './report/replace-headline.js';
export { resolvePlanners } from './resolve-planners.js';
export { type RunBenchOptions, runBench } from './run-bench.js';
export { type RunCheckInput, runCheckTool } from './run-check-tool.js';
export { type RunRealOptions, runReal } from './run-real.js';
export { type SampleLogNormalOptions, sampleLogNormal } from './sample-log-normal.js';
export { type SeedForOptions, seedFor } from './seed-for.js';
export { SeededRandom } from './seeded-random.js';
export { type ScheduledCall, simulateSchedule } from './simulate-schedule.js';
export { type SummarizeWorkloadOptions, summarizeWorkload } from './summarize-workload.js';
export { type TimePlanningOptions, timePlanning } from './time-planning.js';
export { TOOL_LATENCY, type ToolLatency } from './tool-latency.js';
export { type WithLatencyOptions, withLatency } from './with-latency.js';
export type {
  BatchRequest,
  SeedModelWorkload,
  ToolWorkload,
  Workload,
  WorkloadBatch,
} from './workload.js';
export { barrierHeavyWorkload } from './workloads/barrier-heavy-workload.js';
export { defaultWorkloads } from './workloads/default-workloads.js';
export { exploreWorkload } from './workloads/explore-workload.js';
export { hotFileWorkload } from './workloads/hot-file-workload.js';
export { mixedTurnWorkload } from './workloads/mixed-turn-workload.js';
export { refactorWorkload } from './workloads/refactor-workload.js';
export { seedExampleWorkload } from './workloads/seed-example-workload.js';
export { seedModelWorkload } from './workloads/seed-model-workload.js';
export {
  EDIT_MARKERS,
  editMarker,
  fileContent,
  type WorkspaceLayout,
  type WorkspaceLayoutOptions,
  workspaceLayout,
} from './workspace-layout.js';
export {
  type WriteFilesAtomicallyOptions,
  writeFilesAtomically,
} from './write-files-atomically.js';
