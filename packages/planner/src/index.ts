export { accessesOf } from './accesses-of.js';
export { closestName } from './closest-name.js';
export { conflicts } from './conflicts.js';
export { DependencyTracker, dependencies } from './dependencies.js';
export { EagerQueue, type EagerQueueCall, type EagerQueueOptions } from './eager-queue.js';
export { edgesOf, followsByEdge } from './edges-of.js';
export { DEFAULT_ESTIMATE_MS, estimateOf } from './estimate-of.js';
export type { CallExplanation, ExplainPlanOptions, PlacementCause } from './explain-plan.js';
export { explainPlan } from './explain-plan.js';
export { greedyPlanner } from './greedy-planner.js';
export { keysOverlap } from './keys-overlap.js';
export type { ExplainLimits, LimitUse, LimitWait } from './limit-uses.js';
export {
  type LimitedQueueCall,
  LimitedReadyQueue,
  type LimitedReadyQueueOptions,
} from './limited-ready-queue.js';
export type { LowerBoundOptions } from './lower-bound.js';
export { lowerBound } from './lower-bound.js';
export { makespan } from './makespan.js';
export { DEFAULT_MAX_CONCURRENCY, resolveMaxConcurrency } from './max-concurrency.js';
export { type LimitWeights, NamedLimits } from './named-limits.js';
export { optimalPlanner } from './optimal-planner.js';
export type { OptimalPlannerOptions } from './optimal-planner-options.js';
export { DEFAULT_BUDGET_MS, DEFAULT_MAX_EXPANSIONS } from './optimal-planner-options.js';
export { orderedPlanner } from './ordered-planner.js';
export type { PlannerErrorCode } from './planner-error.js';
export { PlannerError } from './planner-error.js';
export { sequentialPlanner } from './sequential-planner.js';
export type { SimulateEagerOptions } from './simulate-eager.js';
export { simulateEager } from './simulate-eager.js';
export type {
  Access,
  AccessMode,
  CallEdge,
  EagerPriority,
  EdgeSource,
  Plan,
  PlanNode,
  Planner,
  PlanOptions,
  PreviousEdgeSource,
  Schedule,
  Wave,
} from './types.js';
export {
  type RefuseUnknownOptionsOptions,
  refuseUnknownOptions,
} from './unknown-options.js';
export type { VerifyPlanOptions } from './verify-plan.js';
export { verifyPlan } from './verify-plan.js';
export type { VerifyScheduleOptions } from './verify-schedule.js';
export { verifySchedule } from './verify-schedule.js';
